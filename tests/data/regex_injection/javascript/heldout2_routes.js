// Held-out set 2: written before the finder changes of issue 27's follow-up,
// measured once after them, never tuned on (README.md).
const express = require('express');
const _ = require('lodash');

const router = express.Router();
const ORDERS = { asc: '^a', desc: '^z' };

router.get('/search', async (req, res) => {
  const { q = '' } = req.query;
  const words = q.split(/\s+/);
  const rx = new RegExp(words.join('|'), 'i'); // expect: injection
  res.json({ source: rx.source });
});

router.get('/prefix', (req, res) => {
  const rx = new RegExp('^' + _.escapeRegExp(req.query.prefix)); // expect: clean
  res.json({ source: rx.source });
});

router.get('/order', (req, res) => {
  const rx = new RegExp(ORDERS[req.query.order] || '^a'); // expect: clean
  res.json({ source: rx.source });
});

function buildMatcher(text, pattern) {
  return text.match(pattern); // expect: injection
}

module.exports.register = (fastify) => {
  fastify.get('/match', async (request) => {
    return buildMatcher('some text', request.query.pattern);
  });
};

router.get('/route-filter', (req, res) => {
  const filter = req.get('X-Route-Filter');
  const rx = new RegExp(filter); // expect: injection
  res.json({ source: rx.source });
});

router.post('/words', (req, res) => {
  const found = req.body.text.match(/\bfoo\b/g); // expect: clean
  res.json({ found });
});

class QueryMatcher {
  constructor(q) {
    this.q = q;
  }

  toRegExp() {
    return new RegExp(this.q, 'i'); // expect: injection
  }
}

router.get('/matcher', (req, res) => {
  res.json({ source: new QueryMatcher(req.query.q).toRegExp().source });
});

router.get('/count', (req, res) => {
  const n = Number(req.query.n) || 3;
  res.json({ source: new RegExp(`\\d{${n}}`).source }); // expect: clean
});

module.exports.router = router;
