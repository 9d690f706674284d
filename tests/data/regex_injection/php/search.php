<?php
// Search pages of a small PHP site, plain and Laravel.

use Illuminate\Http\Request;

function search_users(array $rows)
{
    $q = $_GET['q'];
    return array_filter($rows, function ($row) use ($q) {
        return preg_match('/' . $q . '/i', $row['name']); // expect: injection
    });
}

function safe_search()
{
    $q = preg_quote($_GET['q'], '/');
    return preg_match("/^$q/", 'subject'); // expect: clean
}

function interpolated()
{
    $name = $_POST['name'];
    return preg_match("/^{$name}\$/", 'x'); // expect: injection
}

function direct()
{
    return preg_replace($_REQUEST['pattern'], '', 'text'); // expect: injection
}

function constant_only()
{
    return preg_split('/\s*,\s*/', $_GET['list']); // expect: clean
}

function laravel(Request $request)
{
    $term = $request->input('term');
    return preg_grep('/' . $term . '/', ['a', 'b']); // expect: injection
}

function reassigned()
{
    $v = preg_quote($_GET['v']);
    $v = $_GET['raw'];
    return preg_match("#$v#", 'x'); // expect: injection
}

function sanitised()
{
    $v = $_GET['v'];
    $v = preg_quote($v, '#');
    return preg_match("#$v#", 'x'); // expect: clean
}

function numeric()
{
    $n = intval($_GET['n']);
    return preg_match('/^\d{1,' . $n . '}$/', 'x'); // expect: clean
}

function other_function_same_name()
{
    $q = 'fixed';
    return preg_match('/' . $q . '/', 'x'); // expect: clean
}

class Finder
{
    private $pattern;

    public function __construct()
    {
        $this->pattern = $_GET['p'];
    }

    public function run()
    {
        return preg_match($this->pattern, 'x'); // expect: injection (an object field, set in another method)
    }
}

function cookie_pattern()
{
    $theme = $_COOKIE['theme'] ?? 'light';
    return preg_replace_callback('/\{(\w+)\}/', fn ($m) => $theme, 'x'); // expect: clean
}

if (isset($_GET['filter'])) {
    $filter = $_GET['filter'];
    $items = ['a', 'b'];
    $matches = preg_grep("/$filter/", $items); // expect: injection
}
