// The figures' "View full size" dialog and "Edit in mermaid.live" links, loaded on demand: the
// small module script in Figure.astro (once per page) shows the buttons and imports this file the
// first time a reader uses one, so it weighs nothing before interaction.
//
// "View full size": open(btn) moves that figure's <svg> into one shared native <dialog> (so its
// ids stay unique), shown at 100 % with zoom buttons, + / − / 0 keys and native scrolling to pan
// (arrow keys once the pane has focus, which it gets on open). Escape, the close button or a
// click on the backdrop closes it; the <svg> goes back and the browser returns focus to the
// button. The strings are in the page's language: Figure.astro puts them on the button.
//
// "Edit in mermaid.live": live(a) gives the link's href the figure's Mermaid source (mermaid.live's
// "pako:" state: zlib-deflated JSON, base64url; mermaid-js/mermaid-live-editor
// src/lib/util/serde.ts), so the page does not carry every source twice. Without JavaScript the
// link opens an empty editor and the hint says to paste the source.

const LEVELS = [0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.25, 1.5, 2, 3];
let dlg, pane, level, title, svg, home, next, width, zoom;

const el = (tag, attrs, text) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
};

const set = (z) => {
  // Keep the middle of what is shown in the middle.
  const cx = (pane.scrollLeft + pane.clientWidth / 2) / zoom;
  const cy = (pane.scrollTop + pane.clientHeight / 2) / zoom;
  zoom = Math.min(3, Math.max(0.1, z));
  svg.style.width = `${Math.round(width * zoom)}px`;
  level.textContent = `${Math.round(zoom * 100)} %`;
  pane.scrollLeft = cx * zoom - pane.clientWidth / 2;
  pane.scrollTop = cy * zoom - pane.clientHeight / 2;
};

const act = (k) => {
  if (k === 'x') dlg.close();
  else if (k === '1') set(1);
  else if (k === 'fit') set((pane.clientWidth - 16) / width);
  else if (k === '+') set(LEVELS.find((l) => l > zoom + 0.01) ?? 3);
  else if (k === '-') set([...LEVELS].reverse().find((l) => l < zoom - 0.01) ?? 0.25);
};

const build = (s) => {
  dlg = el('dialog', { class: 'kal-zoom', 'aria-labelledby': 'kal-zoom-title', closedby: 'any' });
  const bar = el('div', { class: 'kal-zoom__bar' });
  title = el('h2', { id: 'kal-zoom-title', class: 'kal-zoom__title' });
  level = el('output', { class: 'kal-zoom__level', 'aria-live': 'polite' });
  const button = (k, label, text) =>
    el('button', { type: 'button', 'data-z': k, 'aria-label': label }, text);
  bar.append(
    title,
    button('-', s.zoomOut, '−'),
    level,
    button('+', s.zoomIn, '+'),
    button('1', s.actual, '100 %'),
    button('fit', s.fit, s.fitText),
    button('x', s.close, s.closeText),
  );
  pane = el('div', {
    class: 'kal-zoom__pane',
    tabindex: '0',
    role: 'group',
    'aria-label': s.pane,
  });
  pane.autofocus = true;
  dlg.append(bar, pane);
  document.body.append(dlg);
  dlg.addEventListener('click', (e) => {
    const k = e.target.closest('[data-z]')?.dataset.z;
    if (k) act(k);
  });
  dlg.addEventListener('keydown', (e) => {
    const k = { '+': '+', '=': '+', '-': '-', _: '-', 0: '1' }[e.key];
    if (!k || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    act(k);
  });
  dlg.addEventListener('close', () => {
    svg.style.width = '';
    home.insertBefore(svg, next);
    home.style.minHeight = '';
    svg = undefined;
  });
};

export const open = (btn) => {
  const fig = document.getElementById(btn.dataset.kalFull);
  const found = fig?.querySelector('svg.kal-fig');
  if (!found) return;
  if (!dlg) build(JSON.parse(btn.dataset.kalStrings));
  svg = found;
  home = svg.parentNode;
  next = svg.nextSibling;
  width = svg.viewBox.baseVal.width;
  home.style.minHeight = `${home.offsetHeight}px`;
  title.textContent = svg.querySelector('title')?.textContent ?? '';
  pane.append(svg);
  zoom = 1;
  dlg.showModal();
  set(1);
  pane.scrollLeft = 0;
  pane.scrollTop = 0;
};

const pack = async (code) => {
  const state = JSON.stringify({
    code,
    mermaid: JSON.stringify({ theme: 'default' }),
    autoSync: true,
    updateDiagram: true,
  });
  const stream = new Blob([state]).stream().pipeThrough(new CompressionStream('deflate'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  const b64 = btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `https://mermaid.live/edit#pako:${b64}`;
};
export const live = (a) => {
  if (!a.kalHref) {
    const code = a.closest('details')?.querySelector('pre code')?.textContent ?? '';
    a.kalHref = pack(code).then((url) => (a.href = url));
  }
  return a.kalHref;
};
/** follow opens the link once its href carries the source. */
export const follow = (a) =>
  live(a).then((url) => window.open(url, a.target || '_self', 'noopener'));
