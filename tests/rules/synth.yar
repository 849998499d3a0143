// search-synth.t: strings of tests/specs/search.spec that run across a
// 4 KiB and a 2 MiB page boundary (virtually contiguous, physically not).
rule split
{
    strings:
        $across = "PGWSPLIT-ACROSS"
        $huge = { 48 55 47 45 ?? 41 47 45 2D 42 4F 55 4E 44 }
    condition:
        any of them
}
