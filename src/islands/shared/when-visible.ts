// whenVisible is the one mount-when-visible helper of the islands: it calls mount once for each
// element, the first time the element comes into the viewport (widen rootMargin to start earlier), so an
// island's code and its worker load only for what the learner reaches. Where there is no
// IntersectionObserver, it mounts at once.

export function whenVisible<E extends Element>(
  elements: Iterable<E>,
  mount: (el: E) => void,
  rootMargin = '0px',
): void {
  const list = [...elements];
  if (list.length === 0) return;
  if (typeof IntersectionObserver === 'undefined') {
    for (const el of list) mount(el);
    return;
  }
  const io = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        io.unobserve(entry.target);
        mount(entry.target as E);
      }
    },
    { rootMargin },
  );
  for (const el of list) io.observe(el);
}
