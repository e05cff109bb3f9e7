// <cluster-lab> wraps the static HTML ClusterLab.astro renders, as Starlight's <starlight-tabs>
// does: a custom element whose behaviour is its class. It loads the island (d3, the panels and
// the simulator worker) only once it scrolls into view.

import { whenVisible } from '../shared/when-visible.ts';

export class ClusterLabElement extends HTMLElement {
  connectedCallback(): void {
    const section = this.querySelector<HTMLElement>('[data-cluster-lab]');
    if (!section) return;
    whenVisible([section], (el) => {
      void import('./island.ts').then((m) => m.start(el));
    });
  }
}

if (!customElements.get('cluster-lab')) customElements.define('cluster-lab', ClusterLabElement);
