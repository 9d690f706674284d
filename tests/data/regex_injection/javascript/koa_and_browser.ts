// A Koa service and a browser helper, in TypeScript.
import Router from '@koa/router';
import escape from 'escape-string-regexp';

const router = new Router();

router.get('/items', async (ctx) => {
  const { q } = ctx.query;
  ctx.body = ITEMS.filter((item) => item.name.match(q as string)); // expect: injection
});

router.get('/items/safe', async (ctx) => {
  const q = escape(String(ctx.query.q));
  ctx.body = ITEMS.filter((item) => new RegExp(q, 'i').test(item.name)); // expect: clean
});

export async function handler(req: Request, res: Response): Promise<void> {
  const prefix: string = req.query.prefix as string;
  const re = new RegExp(`^${prefix}`); // expect: injection
  res.json(KEYS.filter((k) => re.test(k)));
}

export function highlight(): void {
  const params = new URLSearchParams(window.location.search);
  const word = params.get('highlight');
  const re = new RegExp(word ?? '', 'gi'); // expect: injection
  document.body.innerHTML = document.body.innerHTML.replace(re, '<mark>$&</mark>');
}

export function highlightConstant(text: string): string {
  const re = new RegExp('\\b(todo|fixme)\\b', 'gi'); // expect: clean
  return text.replace(re, '<mark>$&</mark>');
}

export function fromHash(): RegExp {
  const fragment = location.hash.slice(1);
  return new RegExp(decodeURIComponent(fragment)); // expect: injection
}
