// search-synth.t: a rule's condition holds or fails over one 256 KiB
// chunk of memory whose pages follow one another.  In physical memory of
// tests/specs/search.spec, EXCLUDED-MARK (0x300000) and PGWSPLIT (0x301ff8)
// lie in one chunk; END-OF-RAM-MARK (0xfffff0) in the last.
rule one_chunk
{
    strings:
        $a = "EXCLUDED-MARK"
        $b = "PGWSPLIT"
    condition:
        $a and $b
}

rule two_chunks
{
    strings:
        $a = "EXCLUDED-MARK"
        $c = "END-OF-RAM-MARK"
    condition:
        $a and $c
}
