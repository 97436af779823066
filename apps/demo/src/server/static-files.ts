import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

const PUBLIC = new URL('../../public/', import.meta.url);

/** The page's files: plain HTML, CSS and JS, served as written (no bundler, no build step). */
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/render.js': { file: 'render.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

/** Serves one of the page's files; false when `path` is not one of them. */
export async function serveStatic(path: string, response: ServerResponse): Promise<boolean> {
  const entry = FILES[path];
  if (entry === undefined) return false;
  const body = await readFile(fileURLToPath(new URL(entry.file, PUBLIC)));
  response.writeHead(200, { 'content-type': entry.type, 'cache-control': 'no-store' });
  response.end(body);
  return true;
}
