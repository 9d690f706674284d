// First held-out set (frozen finder 15a748f, measured once), seen since:
// a development file now (tests/data/regex_injection/README.md).
const { Router } = require('express');

const api = Router();

api.get('/products', async function listProducts(req, res, next) {
  try {
    const { category, q = '' } = req.query;
    const filter = {};
    if (q) filter.title = { $regex: new RegExp(q, 'i') }; // expect: injection
    if (category) filter.category = category;
    res.json(await Product.find(filter));
  } catch (err) {
    next(err);
  }
});

api.get('/logs', (req, res) => {
  const level = String(req.query.level || 'info').toUpperCase();
  const lines = LOG.split('\n').filter((l) => new RegExp(`\\[${level}\\]`).test(l)); // expect: injection
  res.type('text').send(lines.join('\n'));
});

api.post('/rename', (req, res) => {
  const from = req.body.from;
  const to = req.body.to;
  const re = new RegExp(from.replace(/[-\/\\^$*+?.()|[\]{}]/g, '\\$&'), 'g'); // expect: clean
  res.send(NAME.replace(re, to));
});

api.get('/ext', (req, res) => {
  const exts = ['png', 'jpg'];
  const re = new RegExp(`\\.(${exts.join('|')})$`); // expect: clean
  res.send(re.test(req.query.file));
});

api.get('/words', (req, res) => {
  const opts = req.query;
  const word = opts.word;
  const matches = TEXT.match(new RegExp('\\b' + word + '\\w*', 'g')); // expect: injection
  res.json(matches);
});

class SearchService {
  constructor(term) {
    this.re = new RegExp(term); // expect: injection (constructed with a request value below)
  }
}

api.get('/svc', (req, res) => res.json(new SearchService(req.query.term).re.source));

api.get('/flags', (req, res) => {
  const flags = req.query.flags === 'i' ? 'i' : '';
  const re = new RegExp('^abc$', flags); // expect: clean
  res.send(re.flags);
});
