<?php
// First held-out set (frozen finder 15a748f, measured once), seen since:
// a development file now (tests/data/regex_injection/README.md).

function route_search()
{
    $term = trim($_GET['term'] ?? '');
    if ($term === '') {
        return [];
    }
    $pattern = sprintf('/%s/iu', $term);
    return preg_grep($pattern, load_titles()); // expect: injection
}

function route_escaped()
{
    $term = trim($_GET['term'] ?? '');
    $pattern = sprintf('/%s/iu', preg_quote($term, '/'));
    return preg_grep($pattern, load_titles()); // expect: clean
}

function route_whitelist()
{
    $allowed = ['asc' => '/^a/', 'desc' => '/^z/'];
    $key = $_GET['order'] ?? 'asc';
    return preg_match($allowed[$key] ?? '/^a/', 'abc'); // expect: clean
}

function route_split()
{
    $sep = $_POST['sep'];
    return preg_split('/' . $sep . '/', $_POST['text']); // expect: injection
}

function route_replace()
{
    $text = $_POST['text'];
    return preg_replace('/\s+/', ' ', $text); // expect: clean
}

$router->get('/filter', function (Request $request) {
    $needle = $request->query('needle');
    return preg_match("~{$needle}~", 'haystack'); // expect: injection
});
