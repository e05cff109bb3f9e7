// The live cluster island (ClusterLab.astro): lazy loading, playback, faults and seeking, the
// kubectl console, "Why?", figures, URL state and the Japanese page. Expected simulator results
// are computed here in Node with the same sim API the island's worker uses.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { Locator, Page } from '@playwright/test';
import { restore, snapshot, type Node } from '../sim/index.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

const YAML = readFileSync(
  new URL('../content/scenarios/node-failure.yaml', import.meta.url),
  'utf8',
);
const SEED = 7;
const FAULT_AT = 50_000;

/** notReadyAt runs node-failure with node-1 stopped at FAULT_AT and returns when node-1's Ready became Unknown (ms). */
function notReadyAt(): number {
  const run = restore(
    snapshot(parseYaml(YAML), SEED, 180_000, [
      { at: FAULT_AT, fault: 'node-down', node: 'node-1' },
    ]),
  );
  for (const c of run.cluster.apiserver.changes) {
    if (c.resource !== 'nodes' || c.object.metadata.name !== 'node-1') continue;
    const ready = (c.object as Node).status?.conditions?.find((x) => x.type === 'Ready');
    if (ready && ready.status !== 'True') return c.t * 1000;
  }
  throw new Error('node-1 never became NotReady');
}

const lab = (page: Page) => page.locator('[data-cluster-lab]');

/** labConsole is the island's command line and its output log. */
const labConsole = (page: Page) => ({
  input: lab(page).getByRole('textbox', { name: 'Command' }),
  output: lab(page).getByRole('log', { name: 'Console output' }),
});

/** openLab scrolls the island into view and waits until it is interactive; returns the ms that took. */
async function openLab(page: Page): Promise<number> {
  const island = lab(page);
  const started = Date.now();
  await island.scrollIntoViewIfNeeded();
  await expect(island).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  return Date.now() - started;
}

/** seek moves the timeline scrubber to ms, as a learner's drag would (input, then change). */
async function seek(page: Page, ms: number): Promise<void> {
  await lab(page)
    .locator('[data-role="scrub"]')
    .evaluate((el, v) => {
      const input = el as HTMLInputElement;
      input.value = String(v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, ms);
  // A seek simulates all the way there (hundreds of Pods in one test): on a busy 2-core machine
  // that takes longer than expect's default 5 s.
  await expect(lab(page)).toHaveAttribute('data-time', String(ms), { timeout: 30_000 });
}

const nodeStatus = (page: Page, node: string): Locator =>
  lab(page).locator(`[data-node="${node}"] [data-role="node-status"]`);

test('the island loads its code only when scrolled into view, then plays', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  const lazy: string[] = [];
  page.on('request', (r) => {
    if (/\/(island|worker)[.-][^/]*\.js/.test(r.url())) lazy.push(r.url());
  });
  await page.goto('/demo/cluster-lab/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The live cluster');
  const island = lab(page);
  await expect(island.getByRole('button', { name: 'Play' })).toBeDisabled();
  await page.waitForLoadState('networkidle');
  expect(await island.evaluate((el) => el.getBoundingClientRect().top > window.innerHeight)).toBe(
    true,
  );
  expect(lazy, 'island code fetched before it was visible').toEqual([]);
  await expect(island).not.toHaveAttribute('data-ready');

  const ms = await openLab(page);
  testInfo.annotations.push({ type: 'scroll-to-ready', description: `${ms} ms` });
  console.log(`cluster lab: scrolled into view → data-ready in ${ms} ms`);
  expect(lazy.some((u) => u.includes('island'))).toBe(true);
  expect(lazy.some((u) => u.includes('worker'))).toBe(true);

  await island.getByLabel('Speed').selectOption('100');
  const play = island.getByRole('button', { name: 'Play' });
  await play.click();
  await expect(island.getByRole('button', { name: 'Pause' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect
    .poll(async () => Number(await island.getAttribute('data-time')))
    .toBeGreaterThan(5_000);
  await island.getByRole('button', { name: 'Pause' }).click();
  const paused = Number(await island.getAttribute('data-time'));
  await expect(island.getByRole('button', { name: 'Play' })).toBeVisible();

  await island.getByRole('button', { name: 'Step to next event' }).click();
  await expect
    .poll(async () => Number(await island.getAttribute('data-time')))
    .toBeGreaterThanOrEqual(paused);
  await expect(island.locator('[data-role="live"]')).not.toBeEmpty();
});

test('stopping node-1 and seeking past the grace period shows it NotReady; the URL restores it', async ({
  page,
  context,
}) => {
  const expected = notReadyAt();
  expect(expected).toBeGreaterThan(FAULT_AT);
  expect(expected).toBeLessThan(120_000);

  await page.goto('/demo/cluster-lab/');
  await openLab(page);
  const island = lab(page);
  await seek(page, FAULT_AT);
  await expect(nodeStatus(page, 'node-1')).toHaveText('Ready');
  await expect(island.getByLabel('Node', { exact: true })).toHaveValue('node-1');
  await island.getByRole('button', { name: 'Stop node' }).click();
  await expect(island.locator('[data-role="live"]')).toContainText('Stop node on node-1');

  await seek(page, Math.floor(expected / 1000) * 1000 - 1000);
  await expect(nodeStatus(page, 'node-1')).toHaveText('Ready');
  await seek(page, 120_000);
  await expect(nodeStatus(page, 'node-1')).toHaveText('NotReady');
  await expect(island.locator('[data-node="node-1"]')).toHaveAttribute('data-status', 'NotReady');
  await expect(island.locator('[data-role="live"]')).toContainText('node-1 is NotReady');

  await expect(page).toHaveURL(/#lab=/);
  const url = page.url();
  const other = await context.newPage();
  await other.goto(url);
  await openLab(other);
  await expect(lab(other)).toHaveAttribute('data-time', '120000');
  await expect(nodeStatus(other, 'node-1')).toHaveText('NotReady');
  await expect(lab(other).locator('[data-role="live"]')).toContainText(
    'Restored the lab at 2:00 with 1 actions',
  );
  for (const n of ['node-2', 'node-3'])
    await expect(nodeStatus(other, n)).toHaveText(await nodeStatus(page, n).innerText());
  await other.close();
});

test('the console runs kubectl and node commands, reports errors and recalls history', async ({
  page,
}, testInfo) => {
  await page.goto('/demo/cluster-lab/');
  await openLab(page);
  const island = lab(page);
  const { input, output } = labConsole(page);
  await seek(page, 30_000);

  await input.fill('kubectl get pods');
  await input.press('Enter');
  await expect(output).toContainText(/NAME\s+READY\s+STATUS/);

  await input.fill('kubectl frobnicate');
  await input.press('Enter');
  await expect(output).toContainText('error: unknown command "frobnicate" for "kubectl"');

  await input.fill('ssh node-2 crictl ps');
  await input.press('Enter');
  await expect(output).toContainText(/CONTAINER\s+IMAGE/);

  await input.fill('rm -rf /');
  await input.press('Enter');
  await expect(output).toContainText('bash: rm: command not found');

  await input.fill('<img src=x onerror=alert(1)>');
  await input.press('Enter');
  await expect(output.locator('img')).toHaveCount(0);

  await input.press('ArrowUp');
  await expect(input).toHaveValue('<img src=x onerror=alert(1)>');
  await input.press('ArrowUp');
  await input.press('ArrowUp');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('kubectl frobnicate');
  await input.press('ArrowDown');
  await expect(input).toHaveValue('ssh node-2 crictl ps');

  // Why? from a Pod chip, and the figures of this run.
  const chip = island.locator('[data-pod^="web-"]').first();
  const pod = (await chip.getAttribute('data-pod'))!;
  await chip.click();
  const why = island.locator('[data-role="why-out"]');
  await expect(why.getByRole('heading')).toContainText(pod);
  await expect(why).toContainText('kube-scheduler wrote create pods/binding');
  await expect(why).toContainText('spec.nodeName');
  await island.getByLabel('Pod or node').selectOption('node:node-1');
  await expect(why.getByRole('heading')).toContainText('node-1');

  await island.getByRole('button', { name: 'Figures of my run' }).click();
  const figures = island.locator('[data-role="figures-out"]');
  await expect(figures.locator('.lab-steps li').first()).toBeAttached();
  // The learner's own run is drawn as an SVG sequence diagram, with one numbered arrow per step.
  const svg = figures.locator('svg[role="img"]');
  await expect(svg).toHaveCount(1);
  await expect(svg.locator('title')).not.toHaveText('');
  await expect(figures.getByRole('columnheader').first()).toBeVisible();
  await expectAccessible(page, testInfo, '/demo/cluster-lab/ with the island in use');
});

test('scaling to hundreds of Pods keeps the island drawable: a few per node, the rest counted', async ({
  page,
}) => {
  await page.goto('/demo/cluster-lab/');
  await openLab(page);
  const island = lab(page);
  const { input, output } = labConsole(page);
  await seek(page, 30_000);
  await input.fill('kubectl scale deployment web --replicas=400');
  await input.press('Enter');
  await expect(output).toContainText('deployment.apps/web scaled');
  await seek(page, 90_000);
  // The web Pods request 250m CPU, so each 4-CPU worker takes about 15 of them; the other few
  // hundred stay Pending and are counted under the nodes instead of drawn.
  await expect(island.locator('[data-role="pending"]')).toHaveText(
    /^\d{3} Pods wait for a node \(Pending: kubectl describe pod says why\)$/,
  );
  for (const node of ['node-1', 'node-2', 'node-3'])
    expect(await island.locator(`[data-node="${node}"] [data-pod]`).count()).toBeLessThanOrEqual(
      40,
    );
  // Without requests, a node takes up to 110 Pods: it draws 40 and counts the rest.
  await input.fill('kubectl create deployment many --image=nginx:1.27 --replicas=300');
  await input.press('Enter');
  await expect(output).toContainText('deployment.apps/many created');
  await seek(page, 150_000);
  await expect(island.locator('.lab-node .lab-more').first()).toHaveText(
    /^\+ \d+ more Pods on this node \(kubectl get pods lists them all\)$/,
  );
  for (const node of ['node-1', 'node-2', 'node-3'])
    expect(await island.locator(`[data-node="${node}"] [data-pod]`).count()).toBeLessThanOrEqual(
      40,
    );
  await input.fill('kubectl get deployment web');
  await input.press('Enter');
  await expect(output).toContainText(/web\s+\d+\/400/);
});

test('a corrupt URL hash falls back to the start of the scenario with a message', async ({
  page,
}) => {
  await page.goto('/demo/cluster-lab/#lab=eyJ2IjoxLCJzIjoi%3Cscript%3E');
  await openLab(page);
  await expect(lab(page).locator('[data-role="notice"]')).toContainText('could not be read');
  await expect(lab(page)).toHaveAttribute('data-time', '0');
  await expect(nodeStatus(page, 'node-1')).toHaveText('Ready');
});

test('the Japanese page runs the island in Japanese', async ({ page }, testInfo) => {
  await page.goto('/ja/demo/cluster-lab/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('動くクラスター');
  await openLab(page);
  const island = lab(page);
  await expect(island.locator('[data-role="state"]')).toContainText('準備ができました');
  await seek(page, 60_000);
  await seek(page, 120_000);
  await expect(nodeStatus(page, 'node-1')).toHaveText('NotReady');
  await expect(island.locator('[data-role="live"]')).toContainText(
    'node-1 が NotReady になりました',
  );
  await island.getByRole('textbox', { name: 'コマンド' }).fill('kubectl get nodes');
  await island.getByRole('button', { name: '実行', exact: true }).click();
  await expect(island.locator('[data-role="output"]')).toContainText(/NAME\s+STATUS/);
  await island.getByRole('button', { name: '再生' }).focus();
  await page.keyboard.press('Enter');
  await expect(island.getByRole('button', { name: '一時停止' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expectAccessible(page, testInfo, '/ja/demo/cluster-lab/ with the island in use');
});

// ---- issue 15: Why? to the cause, shared transcripts, console commands, figures of my run ----

/** CASES are the two ways these tests look at the lab: English wide, Japanese on a phone. */
const CASES = [
  { lang: 'en', width: 1280, height: 900, prefix: '' },
  { lang: 'ja', width: 390, height: 844, prefix: '/ja' },
] as const;

const WORDS = {
  en: {
    command: 'Command',
    node: 'Node',
    stop: 'Stop node',
    target: 'Pod or node',
    by: 'Stop node on node-2, done by you',
    console: 'This console accepts',
    manifest: 'Manifest (YAML; several documents separated by ---)',
    apply: 'Apply',
    figures: 'Figures of my run',
    around: 'Around',
    span: 'Window',
  },
  ja: {
    command: 'コマンド',
    node: 'ノード',
    stop: 'ノードを停止',
    target: 'Pod またはノード',
    by: 'node-2 で「ノードを停止」(あなたが実行)',
    console: 'このコンソールで使えるコマンド',
    manifest: 'マニフェスト(YAML。複数のドキュメントは --- で区切る)',
    apply: '適用',
    figures: '自分の実行を図にする',
    around: '基準',
    span: '範囲',
  },
} as const;

/** noWiderThanScreen checks that nothing makes the page scroll sideways. */
async function noWiderThanScreen(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
}

for (const c of CASES) {
  const w = WORDS[c.lang];

  test(`${c.lang} ${c.width}px: Why? on a NotReady node names the missed Lease renewals and the fault, and a shared URL restores the transcript and the Why? panel`, async ({
    page,
    context,
  }) => {
    await page.setViewportSize({ width: c.width, height: c.height });
    await page.goto(`${c.prefix}/demo/cluster-lab/`);
    await openLab(page);
    const island = lab(page);
    const input = island.getByRole('textbox', { name: w.command });
    await seek(page, 50_000);
    await island.getByLabel(w.node, { exact: true }).selectOption('node-2');
    await island.getByRole('button', { name: w.stop }).click();
    await input.fill('help');
    await input.press('Enter');
    await seek(page, 120_000);
    await island.getByLabel(w.target).selectOption('node:node-2');
    const why = island.locator('[data-role="why-out"]');
    await expect(why).toContainText(
      'Ready=Unknown NodeStatusUnknown: Kubelet stopped posting node status.',
    );
    const link = why.locator('li[data-kind="lease"]').first();
    await expect(link).toContainText('kube-node-lease/node-2');
    await expect(link).toContainText('node-monitor-grace-period');
    await expect(why.locator('li[data-kind="fault"]').first()).toContainText(w.by);
    await noWiderThanScreen(page);

    const other = await context.newPage();
    await other.setViewportSize({ width: c.width, height: c.height });
    await other.goto(page.url());
    await openLab(other);
    await expect(lab(other).getByRole('log')).toContainText(w.console);
    await expect(
      lab(other).locator('[data-role="why-out"] li[data-kind="lease"]').first(),
    ).toContainText('kube-node-lease/node-2');
    await other.close();
  });

  test(`${c.lang} ${c.width}px: the console has help, Tab completion, logs, exec, -w and a manifest editor`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: c.width, height: c.height });
    await page.goto(`${c.prefix}/demo/cluster-lab/`);
    await openLab(page);
    const island = lab(page);
    const input = island.getByRole('textbox', { name: w.command });
    const output = island.getByRole('log');
    await seek(page, 30_000);
    const pod = (await island.locator('[data-pod^="web-"]').first().getAttribute('data-pod'))!;

    // "po" is the start of pods and poddisruptionbudgets: Tab completes what they share.
    await input.fill('kubectl get po');
    await input.press('Tab');
    await expect(input).toHaveValue('kubectl get pod');
    await input.fill('kubectl get deploy');
    await input.press('Tab');
    await expect(input).toHaveValue('kubectl get deployments ');
    await input.fill('kubectl logs we');
    await input.press('Tab');
    await expect(input).toHaveValue(/^kubectl logs web-[a-z0-9]+-$/);
    await expect(island.locator('[data-role="completions"]')).toContainText(pod);

    await input.fill(`kubectl exec ${pod} -- hostname`);
    await input.press('Enter');
    await expect(output).toContainText(`$ kubectl exec ${pod} -- hostname\n${pod}\n`);
    // A script in the container's shell: the learner's text runs in the simulator, never the page.
    await input.fill(`kubectl exec ${pod} -- sh -c 'for i in $(seq 3); do echo "<b>$i</b>"; done'`);
    await input.press('Enter');
    await expect(output).toContainText('<b>1</b>\n<b>2</b>\n<b>3</b>\n');
    await expect(output.locator('b')).toHaveCount(0);
    await input.fill('kubectl logs nope');
    await input.press('Enter');
    await expect(output).toContainText('Error from server (NotFound): pods "nope" not found');

    // -w prints the list, then a row (no header) each time the Deployment changes as time plays.
    await input.fill('kubectl get deployments -w');
    await input.press('Enter');
    await seek(page, 120_000);
    await expect(output).toContainText(/\nweb {3}2\/3 {3}3 {5}2 {5}\d+[sm]\n/);
    await input.press('Escape');
    await expect(output).toContainText('^C');
    // A shared link shows the transcript as it was shown, the rows the watch streamed included.
    const shown = (await output.textContent())!;
    const other = await page.context().newPage();
    await other.setViewportSize({ width: c.width, height: c.height });
    await other.goto(page.url());
    await openLab(other);
    await expect(lab(other).getByRole('log')).toHaveText(shown);
    await other.close();

    const editor = island.getByRole('textbox', { name: w.manifest });
    await editor.fill(
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: hello\nspec:\n  selector:\n    app: hello\n   ports:\n  - port: 80\n',
    );
    await island.getByRole('button', { name: w.apply, exact: true }).click();
    // kubectl numbers the line within the second document, as it converts each on its own.
    await expect(island.locator('[data-role="manifest-result"]')).toHaveText(
      'error: error parsing STDIN: error converting YAML to JSON: yaml: line 8: did not find expected key',
    );
    await editor.fill(
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: hello\nspec:\n  selector:\n    app: hello\n  ports:\n  - port: 80\n',
    );
    await island.getByRole('button', { name: w.apply, exact: true }).click();
    await expect(island.locator('[data-role="manifest-result"]')).toHaveText(
      'namespace/team-a created\nservice/hello created',
    );
    await input.fill('kubectl get namespace team-a');
    await input.press('Enter');
    await expect(output).toContainText(/\nteam-a\s+Active\s+\d+s\n/);
    await noWiderThanScreen(page);
  });

  test(`${c.lang} ${c.width}px: Figures of my run reach the eviction of a node stopped at 8:00 and stay in their card`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: c.width, height: c.height });
    const state = {
      v: 2,
      s: 'node-failure',
      seed: SEED,
      t: 870_000,
      a: [{ at: 480_000, fault: 'node-down', node: 'node-2' }],
    };
    const hash = Buffer.from(JSON.stringify(state)).toString('base64url');
    await page.goto(`${c.prefix}/demo/cluster-lab/#lab=${hash}`);
    await openLab(page);
    const island = lab(page);
    await island.getByLabel(w.around).selectOption('0');
    await island.getByLabel(w.span).selectOption('600000');
    await island.getByRole('button', { name: w.figures }).click();
    const figures = island.locator('[data-role="figures-out"]');
    await expect(figures.locator('.lab-figure svg')).toHaveCount(1);
    const steps = figures.locator('.lab-steps');
    await expect(steps).toContainText('fault: node-down node-2');
    await expect(steps).toContainText(
      /taint-eviction-controller → kube-apiserver: delete pods web-/,
    );
    // Heartbeats are left out unless asked for.
    await expect(steps).not.toContainText('update leases');
    await noWiderThanScreen(page);
    const frame = await figures.locator('.lab-figure').boundingBox();
    const card = await island.boundingBox();
    expect(frame!.x + frame!.width).toBeLessThanOrEqual(card!.x + card!.width);
  });
}
