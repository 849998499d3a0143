// real-search.t and the benchmark: the guests' marker strings, as a
// regular expression and as bytes with a wildcard.
rule markers
{
    strings:
        $re = /PGWALK-(MARKER|SHARED|FILE-PAGE)-[0-9a-f-]+/
        $hex = { 50 47 57 41 4C 4B 2D ?? 41 52 4B 45 52 }
    condition:
        any of them
}
