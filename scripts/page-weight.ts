// Page weight of the built site: the gzipped bytes a browser fetches to show a page, split into
// HTML, CSS and JS. It reads dist/ (run `npm run build` first), follows the page's stylesheet
// links and module scripts, and each script's static imports. Code loaded on demand (dynamic
// import(), such as the search UI that loads when the search dialog opens) is not counted.
//
//   npm run --silent page-weight [-- /path/ ...]     (default: / and /ja/)
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = resolve(import.meta.dirname, '..', 'dist');

/** Weight is gzipped byte counts by kind of resource. */
type Weight = { html: number; css: number; js: number };

/** gzipped returns the size of a file after gzip at zlib's default level (6). */
function gzipped(bytes: Buffer): number {
  return gzipSync(bytes).length;
}

/** fileOf maps a site path such as /_astro/x.js to its file in dist/. */
function fileOf(sitePath: string): string {
  const path = sitePath.split(/[?#]/)[0] ?? sitePath;
  return join(dist, path.endsWith('/') ? `${path}index.html` : path);
}

/** attr returns the value of an attribute in one HTML tag, or undefined. */
function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}=["']?([^"'\\s>]+)`, 'i').exec(tag)?.[1];
}

/** staticImports lists the site paths a built JS module imports statically. */
function staticImports(sitePath: string, source: string): string[] {
  const found = source.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g);
  return [...found].map((m) => posix.resolve(posix.dirname(sitePath), m[1] ?? ''));
}

/** measure sums the gzipped HTML, CSS and JS fetched on load for one page. */
function measure(page: string): Weight {
  const htmlFile = fileOf(page);
  if (!existsSync(htmlFile)) throw new Error(`${htmlFile} not found: run \`npm run build\` first`);
  const html = readFileSync(htmlFile, 'utf8');
  const weight: Weight = { html: gzipped(Buffer.from(html)), css: 0, js: 0 };
  const local = (href: string | undefined): href is string =>
    href !== undefined && href.startsWith('/') && !href.startsWith('//');

  const stylesheets = [...html.matchAll(/<link\b[^>]*>/gi)]
    .map((m) => m[0])
    .filter((tag) => attr(tag, 'rel')?.toLowerCase() === 'stylesheet')
    .map((tag) => attr(tag, 'href'))
    .filter(local);
  for (const href of new Set(stylesheets)) weight.css += gzipped(readFileSync(fileOf(href)));

  const pending = [...html.matchAll(/<script\b[^>]*>/gi)]
    .map((m) => attr(m[0], 'src'))
    .filter(local);
  const seen = new Set<string>();
  for (let src = pending.shift(); src !== undefined; src = pending.shift()) {
    if (seen.has(src)) continue;
    seen.add(src);
    const bytes = readFileSync(fileOf(src));
    weight.js += gzipped(bytes);
    pending.push(...staticImports(src, bytes.toString('utf8')));
  }
  return weight;
}

/** kB formats a byte count in kilobytes (1 kB = 1000 bytes) with one decimal. */
function kB(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

const pages = process.argv.slice(2).filter((arg) => arg !== '--');
console.log('| Page | HTML | CSS | JS | Total |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const page of pages.length > 0 ? pages : ['/', '/ja/']) {
  const { html, css, js } = measure(page);
  console.log(`| \`${page}\` | ${kB(html)} | ${kB(css)} | ${kB(js)} | ${kB(html + css + js)} |`);
}
