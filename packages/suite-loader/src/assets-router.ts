/**
 * Runs inside the runtime, bundled into a brought Worker's handler when its
 * wrangler project declares static assets: the files of the project's
 * assets folder served in front of the Worker by the rules `wrangler dev`
 * and the Workers platform apply (html_handling, not_found_handling,
 * run_worker_first, the navigation rule), and the assets binding
 * (`env.ASSETS.fetch`) the Worker may call. The same code on every runtime,
 * so an asset's answer and the Worker's are the same work everywhere. The
 * files come embedded in the bundle (static-assets.ts), each decoded on its
 * first request. Web APIs only.
 */

export type HtmlHandling = 'auto-trailing-slash' | 'force-trailing-slash' | 'drop-trailing-slash' | 'none';
export type NotFoundHandling = 'none' | 'single-page-application' | '404-page';

/** How requests meet the assets, as the project's `assets` table says. */
export interface AssetsRouting {
  readonly htmlHandling: HtmlHandling;
  readonly notFoundHandling: NotFoundHandling;
  /** true: every request reaches the Worker first; a list: the routes that do (`*` any text, `!` excludes); false: assets first. */
  readonly runWorkerFirst: boolean | readonly string[];
  /** A navigation (`Sec-Fetch-Mode: navigate`) that matches no file gets the not-found page before the Worker (a compatibility date from NAVIGATION_DATE on, or its flag: static-assets.ts). */
  readonly navigationPrefersAssets: boolean;
}

/** The folder's files by path (`/a/b.css`, decoded): content type, ETag, bytes in base64. */
export type AssetFiles = Readonly<Record<string, readonly [contentType: string, etag: string, base64: string]>>;

interface WorkersModule {
  fetch(request: Request, env: unknown, ctx: unknown): unknown;
}

/** What a path resolves to: a file served with a status, a redirect to another path, or nothing. */
type Intent = { file: string; status: 200 | 404 } | { redirect: string } | null;

const CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** Each segment decoded (a segment that is no valid escape kept as it is), repeated slashes made one. */
function decodePath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/')
    .replace(/\/+/g, '/');
}

const encodePath = (pathname: string): string => pathname.split('/').map((segment) => encodeURIComponent(segment)).join('/');

/** A route pattern of run_worker_first as a test of a path: `*` matches any text. */
function routeTest(pattern: string): (path: string) => boolean {
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  const re = new RegExp(`^${source}$`);
  return (path) => re.test(path);
}

/** Whether a path reaches the Worker before the assets, by run_worker_first; its routes made into tests once, not on every request. */
function workerFirstTest(first: AssetsRouting['runWorkerFirst']): (path: string) => boolean {
  if (typeof first === 'boolean') return () => first;
  const excluded = first.filter((r) => r.startsWith('!')).map((r) => routeTest(r.slice(1)));
  const included = first.filter((r) => !r.startsWith('!')).map(routeTest);
  return (path) => !excluded.some((test) => test(path)) && included.some((test) => test(path));
}

/** The intent resolver over the files, by the html_handling and not_found_handling rules. */
function resolverOver(files: AssetFiles) {
  const etag = (path: string): string | undefined => (Object.hasOwn(files, path) ? files[path]![1] : undefined);
  const serve = (file: string): Intent => ({ file, status: 200 });

  function notFound(path: string, handling: NotFoundHandling): Intent {
    if (handling === 'single-page-application') return etag('/index.html') ? serve('/index.html') : null;
    if (handling === '404-page') {
      // The nearest 404.html at or above the path's folder.
      for (let dir = path; dir; ) {
        dir = dir.slice(0, dir.lastIndexOf('/'));
        if (etag(`${dir}/404.html`)) return { file: `${dir}/404.html`, status: 404 };
      }
    }
    return null;
  }

  /** A redirect from `file` to `to`, when `to` (resolved without redirects) serves that same file's bytes. */
  function redirect(file: string, to: string, routing: AssetsRouting, skip: boolean): Intent {
    if (skip || etag(to)) return null;
    const landed = intent(to, routing, true);
    return landed && 'file' in landed && etag(landed.file) === etag(file) ? { redirect: to } : null;
  }

  function auto(p: string, routing: AssetsRouting, skip: boolean): Intent {
    const go = (file: string, to: string): Intent => redirect(file, to, routing, skip);
    const exact = etag(p);
    let found: Intent = null;
    if (p.endsWith('/index')) {
      if (exact) return serve(p);
      found = go(`${p}.html`, p.slice(0, -'index'.length)) ?? go(`${p.slice(0, -'/index'.length)}.html`, p.slice(0, -'/index'.length));
    } else if (p.endsWith('/index.html')) {
      found = go(p, p.slice(0, -'index.html'.length)) ?? go(`${p.slice(0, -'/index.html'.length)}.html`, p.slice(0, -'/index.html'.length));
    } else if (p.endsWith('/')) {
      if (etag(`${p}index.html`)) return serve(`${p}index.html`);
      found = go(`${p.slice(0, -1)}.html`, p.slice(0, -1));
    } else if (p.endsWith('.html')) {
      found = go(p, p.slice(0, -'.html'.length)) ?? go(`${p.slice(0, -'.html'.length)}/index.html`, `${p.slice(0, -'.html'.length)}/`);
    }
    if (found) return found;
    if (exact) return serve(p);
    if (etag(`${p}.html`)) return serve(`${p}.html`);
    return go(`${p}/index.html`, `${p}/`) ?? notFound(p, routing.notFoundHandling);
  }

  function force(p: string, routing: AssetsRouting, skip: boolean): Intent {
    const go = (file: string, to: string): Intent => redirect(file, to, routing, skip);
    const exact = etag(p);
    let found: Intent = null;
    if (p.endsWith('/index')) {
      if (exact) return serve(p);
      found = go(`${p}.html`, p.slice(0, -'index'.length)) ?? go(`${p.slice(0, -'/index'.length)}.html`, p.slice(0, -'index'.length));
    } else if (p.endsWith('/index.html')) {
      found = go(p, p.slice(0, -'index.html'.length)) ?? go(`${p.slice(0, -'/index.html'.length)}.html`, p.slice(0, -'index.html'.length));
    } else if (p.endsWith('/')) {
      if (etag(`${p}index.html`)) return serve(`${p}index.html`);
      if (etag(`${p.slice(0, -1)}.html`)) return serve(`${p.slice(0, -1)}.html`);
    } else if (p.endsWith('.html')) {
      const stem = p.slice(0, -'.html'.length);
      found = go(p, `${stem}/`) ?? (exact ? serve(p) : null) ?? go(`${stem}/index.html`, `${stem}/`);
    }
    if (found) return found;
    if (exact) return serve(p);
    return go(`${p}.html`, `${p}/`) ?? go(`${p}/index.html`, `${p}/`) ?? notFound(p, routing.notFoundHandling);
  }

  function drop(p: string, routing: AssetsRouting, skip: boolean): Intent {
    const go = (file: string, to: string): Intent => redirect(file, to, routing, skip);
    const exact = etag(p);
    let found: Intent = null;
    if (p.endsWith('/index')) {
      if (exact) return serve(p);
      const stem = p.slice(0, -'/index'.length);
      found = p === '/index' ? go('/index.html', '/') : go(`${stem}.html`, stem) ?? go(`${p}.html`, stem);
    } else if (p.endsWith('/index.html')) {
      const stem = p.slice(0, -'/index.html'.length);
      found = p === '/index.html' ? go(p, '/') : go(p, stem) ?? (exact ? serve(p) : null) ?? go(`${stem}.html`, stem);
    } else if (p.endsWith('/')) {
      if (p === '/') {
        if (etag('/index.html')) return serve('/index.html');
      } else found = go(`${p.slice(0, -1)}.html`, p.slice(0, -1)) ?? go(`${p.slice(0, -1)}/index.html`, p.slice(0, -1));
    } else if (p.endsWith('.html')) {
      const stem = p.slice(0, -'.html'.length);
      found = go(p, stem) ?? go(`${stem}/index.html`, stem);
    }
    if (found) return found;
    if (exact) return serve(p);
    if (etag(`${p}.html`)) return serve(`${p}.html`);
    if (etag(`${p}/index.html`)) return serve(`${p}/index.html`);
    return notFound(p, routing.notFoundHandling);
  }

  function intent(p: string, routing: AssetsRouting, skip = false): Intent {
    switch (routing.htmlHandling) {
      case 'auto-trailing-slash':
        return auto(p, routing, skip);
      case 'force-trailing-slash':
        return force(p, routing, skip);
      case 'drop-trailing-slash':
        return drop(p, routing, skip);
      case 'none':
        return etag(p) ? serve(p) : notFound(p, routing.notFoundHandling);
    }
  }
  return intent;
}

/** The Worker behind its assets, and the assets binding it is given; `worker` absent: a project of assets alone. */
export function withAssets(files: AssetFiles, routing: AssetsRouting, worker?: WorkersModule): { fetch(request: Request, env: unknown, ctx: unknown): Promise<Response>; binding: { fetch(input: Request | string | URL, init?: RequestInit): Promise<Response> } } {
  const intent = resolverOver(files);
  const decoded = new Map<string, Uint8Array>();
  const bytesOf = (file: string): Uint8Array => {
    let bytes = decoded.get(file);
    if (!bytes) {
      const binary = atob(files[file]![2]);
      bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      decoded.set(file, bytes);
    }
    return bytes;
  };
  const workerFirst = workerFirstTest(routing.runWorkerFirst);

  /** The assets' answer, or 'none' when no file (nor the not-found rule) answers the path. */
  function assetAnswer(request: Request, rules: AssetsRouting): Response | 'none' {
    const url = new URL(request.url);
    const path = decodePath(url.pathname);
    const found = intent(path, rules);
    if (!found) return 'none';
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405 });
    const to = 'redirect' in found ? found.redirect : path;
    const canonical = encodePath(to);
    if ('redirect' in found || canonical !== url.pathname) return new Response(null, { status: 307, headers: { Location: canonical + url.search } });
    const [contentType, etag] = files[found.file]!;
    const headers = new Headers({ 'Content-Type': contentType, ETag: `"${etag}"` });
    if (!request.headers.has('Authorization') && !request.headers.has('Range')) headers.set('Cache-Control', CACHE_CONTROL);
    const match = request.headers.get('If-None-Match');
    if (match === `"${etag}"` || match === `W/"${etag}"`) return new Response(null, { status: 304, headers });
    // A copy per response: a runtime may take the body's buffer as its own.
    return new Response(request.method === 'HEAD' ? null : bytesOf(found.file).slice(), { status: found.status, headers });
  }

  const binding = {
    async fetch(input: Request | string | URL, init?: RequestInit): Promise<Response> {
      const answer = assetAnswer(new Request(input, init), routing);
      return answer === 'none' ? new Response(null, { status: 404 }) : answer;
    },
  };
  return {
    binding,
    async fetch(request, env, ctx) {
      if (!worker) return binding.fetch(request);
      if (workerFirst(new URL(request.url).pathname)) return worker.fetch(request, env, ctx) as Promise<Response>;
      // Before the Worker, a path answers from the assets only when a file matches it; the not-found rule applies to navigations alone, when the compatibility date asks it.
      const navigation = routing.navigationPrefersAssets && request.headers.get('Sec-Fetch-Mode') === 'navigate';
      const answer = assetAnswer(request, navigation ? routing : { ...routing, notFoundHandling: 'none' });
      return answer === 'none' ? (worker.fetch(request, env, ctx) as Promise<Response>) : answer;
    },
  };
}
