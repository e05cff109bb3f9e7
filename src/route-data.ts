// Starlight route middleware (astro.config.mjs, `routeMiddleware`): keeps Previous/Next on the
// lesson path, see src/pagination.ts.
import { defineRouteMiddleware } from '@astrojs/starlight/route-data';
import { join } from 'node:path';
import { onSameSide, slugOf } from './pagination.ts';
import { lessonPath } from './sidebar.ts';

/** LOCALES are the URL prefixes of the translated sites (English is at the root). */
const LOCALES = ['ja'];

let path: Set<string> | undefined;

export const onRequest = defineRouteMiddleware((context) => {
  // Read once per build (or dev server): the sidebar, read from the same files, is fixed too.
  path ??= new Set(lessonPath(join(process.cwd(), 'content', 'docs')));
  const route = context.locals.starlightRoute;
  const current = slugOf(context.url.pathname, LOCALES);
  route.pagination.prev = onSameSide(route.pagination.prev, current, path, LOCALES);
  route.pagination.next = onSameSide(route.pagination.next, current, path, LOCALES);
});
