<?php
// Held-out set 2: written before the finder changes of issue 27's follow-up,
// measured once after them, never tuned on (README.md).

class FilterController
{
    private $pattern;

    public function __construct(Request $request)
    {
        $this->pattern = $request->input('pattern', '.*');
    }

    public function apply(array $rows)
    {
        return array_filter($rows, fn ($r) => preg_match($this->pattern, $r)); // expect: injection
    }
}

function tag_routes()
{
    $filters = explode(',', $_GET['f'] ?? '');
    foreach ($filters as $f) {
        if (preg_match("/$f/", 'title')) { // expect: injection
            return true;
        }
    }
    return false;
}

function header_route()
{
    $h = $_SERVER['HTTP_X_FILTER'] ?? '';
    return preg_match('#' . $h . '#', 'path'); // expect: injection
}

function quoted_route($s)
{
    return preg_match('/^' . preg_quote($_GET['p'] ?? '', '/') . '/', $s); // expect: clean
}

function map_route($s)
{
    $map = ['a' => '/^a/', 'z' => '/^z/'];
    return preg_match($map[$_GET['k'] ?? 'a'] ?? '/^a/', $s); // expect: clean
}

function space_route()
{
    return preg_replace('/\s+/', $_POST['sep'] ?? ' ', $_POST['text'] ?? ''); // expect: clean
}

function words_route($s)
{
    $words = array_map(fn ($w) => preg_quote($w, '/'), explode(' ', $_GET['q'] ?? ''));
    return preg_match('/' . implode('|', $words) . '/', $s); // expect: clean
}
