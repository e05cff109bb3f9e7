// Types of figure-script.js, which Figure.astro's module script imports on first use.

/** open shows the figure of a "View full size" button in the full-size dialog. */
export function open(btn: HTMLButtonElement): void;
/** live gives an "Edit in mermaid.live" link its figure's source; resolves to the URL. */
export function live(a: HTMLAnchorElement): Promise<string>;
/** follow opens an "Edit in mermaid.live" link once its URL is ready. */
export function follow(a: HTMLAnchorElement): Promise<unknown>;
