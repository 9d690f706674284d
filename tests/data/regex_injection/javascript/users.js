// Express routes of a small user directory.
const express = require('express');
const _ = require('lodash');
const escapeStringRegexp = require('escape-string-regexp');
const User = require('./models/user');

const router = express.Router();

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

router.get('/users', async (req, res) => {
  const name = req.query.name;
  const users = await User.find({ name: new RegExp(name, 'i') }); // expect: injection
  res.json(users);
});

router.get('/users/search', async (req, res) => {
  const term = escapeRegExp(req.query.term || '');
  const users = await User.find({ email: new RegExp('^' + term, 'i') }); // expect: clean
  res.json(users);
});

router.get('/tags/:tag', function (req, res) {
  const { tag } = req.params;
  const pattern = `\\b${tag}\\b`;
  const matcher = RegExp(pattern); // expect: injection
  res.json(POSTS.filter((post) => matcher.test(post.body)));
});

router.post('/filter', (req, res) => {
  let filter = req.body.filter || '';
  filter = filter.trim();
  const rx = new RegExp(filter); // expect: injection
  let safe = req.body.filter;
  safe = _.escapeRegExp(safe);
  const rx2 = new RegExp(safe); // expect: clean
  const word = escapeStringRegexp(req.body.word);
  const rx3 = new RegExp(`(${word})+`); // expect: clean
  res.json({ a: rx.source, b: rx2.source, c: rx3.source });
});

router.get('/codes', (req, res) => {
  const digits = parseInt(req.query.digits, 10);
  const re = new RegExp('^\\d{1,' + digits + '}$'); // expect: clean
  res.send(re.test(req.query.code));
});

router.get('/id', (req, res) => {
  const re = new RegExp('^[a-z0-9-]+$'); // expect: clean
  if (!re.test(req.query.id)) return res.status(400).end();
  return res.send(req.query.id.match(/^[a-z]+/)[0]); // expect: clean
});

router.get('/reassigned', (req, res) => {
  let q = escapeRegExp(req.query.q);
  q = req.query.raw;
  const re = new RegExp(q); // expect: injection
  res.send(re.source);
});

router.get('/sanitised-after', (req, res) => {
  let q = req.query.q;
  q = q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(q, 'g'); // expect: clean
  res.send(re.source);
});

// A value read in one handler...
router.get('/a', (req, res) => {
  const pattern = req.query.pattern;
  res.send(String(pattern.length));
});

// ...is not the variable of the same name in another one.
router.get('/b', (req, res) => {
  const pattern = 'static';
  res.send(new RegExp(pattern).source); // expect: clean
});

function compileUserPattern(p) {
  return new RegExp(p); // expect: injection (reached from /c, another function)
}

router.get('/c', (req, res) => {
  res.send(compileUserPattern(req.query.p).test('x'));
});

router.get('/names', (req, res) => {
  const wanted = req.query.names.split(',');
  const re = new RegExp(wanted.map(escapeRegExp).join('|')); // expect: clean
  res.json(NAMES.filter((n) => re.test(n)));
});

router.get('/header', (req, res) => {
  const lang = req.headers['accept-language'];
  const matches = SUPPORTED.filter((code) => code.match(lang)); // expect: injection
  res.json(matches);
});

module.exports = router;
