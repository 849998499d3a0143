// search-synth.t: a rule that does not compile (its condition names a
// string it does not have).
rule broken
{
    strings:
        $a = "x"
    condition:
        $b
}
