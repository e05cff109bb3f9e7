// course-progress fills CourseProgress: solved counts per lesson and for the course, the warnings
// from reading damaged progress, and the Export, Import and Reset controls.

import type { Catalog, ImportMode, ProgressWarning } from '../../quiz/progress.ts';
import { STRINGS, fill, warningText, type ProgressLang } from './strings.ts';

interface Config {
  lang: ProgressLang;
  catalog: Catalog;
}

/** mountCourseProgress wires one CourseProgress section. */
export async function mountCourseProgress(root: HTMLElement): Promise<void> {
  const cfg = JSON.parse(root.dataset.config ?? '{}') as Config;
  const t = STRINGS[cfg.lang];
  const [store, progress] = await Promise.all([
    import('./store.ts'),
    import('../../quiz/progress.ts'),
  ]);
  const $ = <T extends Element>(sel: string) => root.querySelector<T>(sel);
  const status = $<HTMLElement>('[data-role="status"]');
  const live = $<HTMLElement>('[data-role="live"]');
  const say = (msg: string) => {
    if (live) live.textContent = msg;
  };

  const showWarnings = (warnings: ProgressWarning[]) => {
    const box = $<HTMLElement>('[data-role="warnings"]');
    const list = $<HTMLUListElement>('[data-role="warning-list"]');
    if (!box || !list) return;
    // An upgrade from an older format is routine and not worth a warning box.
    const shown = warnings.filter((w) => w.code !== 'migrated');
    list.replaceChildren(
      ...shown.map((w) => {
        const li = document.createElement('li');
        li.textContent = warningText(t, w);
        return li;
      }),
    );
    box.hidden = shown.length === 0;
  };

  const draw = (writeBack = false) => {
    const { progress: p, warnings } = store.load(cfg.catalog, writeBack);
    for (const row of root.querySelectorAll<HTMLElement>('[data-lesson-row]')) {
      const ids = (row.dataset.ids ?? '').split(' ').filter(Boolean);
      const solved = progress.countSolved(p, ids);
      const bar = row.querySelector<HTMLProgressElement>('[data-role="bar"]');
      const count = row.querySelector<HTMLElement>('[data-role="count"]');
      const msg = fill(t.solvedOf, { solved, total: ids.length });
      if (bar) {
        bar.value = solved;
        bar.setAttribute('aria-valuetext', msg);
      }
      if (count) count.textContent = msg;
      row.dataset.solved = String(solved);
    }
    if (status) status.textContent = t.keptHere;
    return warnings;
  };

  showWarnings(draw(true));
  store.onChange(() => void draw());

  const exportBtn = $<HTMLButtonElement>('[data-role="export"]');
  const form = $<HTMLFormElement>('[data-role="import-form"]');
  const file = $<HTMLInputElement>('[data-role="file"]');
  const importBtn = $<HTMLButtonElement>('[data-role="import"]');
  const resetBtn = $<HTMLButtonElement>('[data-role="reset"]');
  for (const el of [exportBtn, file, importBtn, resetBtn]) if (el) el.disabled = false;

  exportBtn?.addEventListener('click', () => {
    const now = new Date();
    const name = progress.exportFileName(now);
    const blob = new Blob([progress.exportProgress(store.load(cfg.catalog).progress, now)], {
      type: 'application/json',
    });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.hidden = true;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    say(fill(t.exported, { file: name }));
  });

  form?.addEventListener('submit', (e) => {
    e.preventDefault();
    const f = file?.files?.[0];
    if (!f) {
      say(t.importChoose);
      file?.focus();
      return;
    }
    const mode = (new FormData(form).get('course-progress-mode') ?? 'merge') as ImportMode;
    f.text().then(
      (text) => {
        const r = progress.importProgress(
          text,
          store.load(cfg.catalog).progress,
          mode,
          cfg.catalog,
        );
        if (!r.ok) {
          say(r.reason === 'not-json' ? t.importNotJson : t.importNotProgress);
          return;
        }
        const w = store.save(r.progress);
        showWarnings(w ? [...r.warnings, w] : r.warnings);
        say(
          fill(t.imported, {
            questions: r.questions,
            concepts: r.concepts,
            mode: mode === 'merge' ? t.importedMerge : t.importedReplace,
          }),
        );
        if (file) file.value = '';
      },
      () => say(t.importUnreadable),
    );
  });

  resetBtn?.addEventListener('click', () => {
    if (!window.confirm(t.resetConfirm)) {
      say(t.resetCancelled);
      return;
    }
    const w = progress.resetProgress(store.storage());
    document.dispatchEvent(new CustomEvent(store.CHANGED));
    showWarnings(w ? [w] : []);
    say(t.resetDone);
  });
}
