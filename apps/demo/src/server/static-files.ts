import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

const PUBLIC = new URL('../../public/', import.meta.url);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ico': 'image/x-icon',
};

/**
 * Serves the page's files from `apps/demo/public`: plain HTML, CSS and ES modules, as written (no
 * bundler, no build step), and the icon browsers ask for at `/favicon.ico` whatever the page
 * links. Only flat kebab-case names are served, so no path can leave the folder. Returns false
 * when `path` is not one of them.
 */
export async function serveStatic(path: string, response: ServerResponse): Promise<boolean> {
  const name = path === '/' ? 'index.html' : path.slice(1);
  const type = TYPES[extname(name)];
  if (!/^[a-z][a-z-]*\.(html|js|css|ico)$/.test(name) || type === undefined) return false;
  let body: Buffer;
  try {
    body = await readFile(fileURLToPath(new URL(name, PUBLIC)));
  } catch {
    return false;
  }
  response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(body);
  return true;
}
