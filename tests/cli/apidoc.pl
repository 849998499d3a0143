#!/usr/bin/perl
# What include/pgwalk.h declares and what man/pgwalk.3 documents, as lines
# for tests/cli/apidoc.t to compare.
#
#   apidoc.pl header pgwalk.h   "proto NAME\tPROTOTYPE" per public function
#                               (between the visibility push and pop), in
#                               header order, and "group TITLE" per section
#   apidoc.pl man pgwalk.3      "proto NAME\tPROTOTYPE" per prototype in a
#                               block marked `.\" api: prototypes`, "entry
#                               NAME" per .TP/.TQ tag naming a function,
#                               "ref NAME" per function named anywhere, and
#                               "example LINE" per line of the block marked
#                               `.\" api: example`, roff escapes undone
#   apidoc.pl check pgwalk.h pgwalk.3 vtop.c
#                               one line per problem, none when the page
#                               documents exactly the header's functions,
#                               with the header's prototypes in its order,
#                               and its example is vtop.c:
#                                 undocumented NAME   no prototype or no entry
#                                 differs NAME        its prototype is not the
#                                                     header's
#                                 stale NAME          named, not in the header
#                                 twice NAME          two prototypes
#                                 order NAME          out of the header's order
#                                 example LINE        first line that differs
#
# A prototype is normalised: comments and __attribute__ dropped, white
# space collapsed, none inside parentheses or brackets, ", " between
# parameters; so wrapping a prototype differently changes nothing.
use strict;
use warnings;

sub norm {
	my ($s) = @_;
	$s =~ s/__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)//g;
	$s =~ s/\s+/ /g;
	$s =~ s/\s*([()\[\],])\s*/$1/g;
	$s =~ s/,/, /g;
	$s =~ s/^\s+|\s+$//g;
	return $s;
}

sub unroff {
	my ($s) = @_;
	$s =~ s/\\\(aq/'/g;
	$s =~ s/\\\(dq/"/g;
	$s =~ s/\\-/-/g;
	$s =~ s/\\&//g;
	$s =~ s/\\f[BIRP]//g;
	$s =~ s/\\e/\\/g;
	return $s;
}

# Split C text into top-level statements (at ';' outside braces) and print
# the function declarations among them.
sub protos {
	my ($text) = @_;
	my ($depth, $stmt) = (0, '');
	for my $c (split //, $text) {
		$depth++ if $c eq '{';
		$depth-- if $c eq '}';
		$stmt .= $c;
		next unless $c eq ';' && $depth == 0;
		if ($stmt !~ /\{/ && $stmt =~ /\b(pgw_[a-z0-9_]+)\s*\(/) {
			print "proto $1\t", norm($stmt), "\n";
		}
		$stmt = '';
	}
}

my ($what, $file) = @ARGV;
open(my $fh, '<', $file) or die "$file: $!\n";
my $src = do { local $/; <$fh> };
close $fh;

if ($what eq 'header') {
	my ($body) = $src =~ /visibility push\(default\)\n(.*)\n#pragma GCC visibility pop/s
		or die "$file: no visibility push/pop\n";
	# Section titles first, then every comment and directive goes.
	$body =~ s{/\* -+ (.*?) -+ \*/}{\n\@group $1\n}g;
	$body =~ s{/\*.*?\*/}{ }gs;
	$body =~ s{^[ \t]*#(?:[^\n]*\\\n)*[^\n]*}{}mg;
	for my $part (split /^\@group /m, $body) {
		my ($title, $rest) = $part =~ /^(.*?)\n(.*)$/s or next;
		print "group $title\n";
		protos($rest);
	}
} elsif ($what eq 'man') {
	my $tag = 0;
	my @lines = split /\n/, $src;
	for (my $i = 0; $i < @lines; $i++) {
		my $l = $lines[$i];
		if ($l =~ /^\.\\" api: (prototypes|example)/) {
			my $kind = $1;
			$i++ while $i < @lines && $lines[$i] ne '.nf';
			my $text = '';
			for ($i++; $i < @lines && $lines[$i] ne '.fi'; $i++) {
				next if $lines[$i] =~ /^\.(?:ft|B|I|R)\b/;
				my $t = unroff($lines[$i]);
				if ($kind eq 'example') {
					print "example $t\n";
				} else {
					$text .= "$t\n";
				}
			}
			protos($text) if $kind eq 'prototypes';
			next;
		}
		if ($l =~ /^\.T[PQ]$/) {
			$tag = 1;
			next;
		}
		if ($tag && $l =~ /^\.BR? (pgw_[a-z0-9_]+) \(\)/) {
			print "entry $1\n";
		}
		$tag = 0;
		print "ref $1\n" while $l =~ /\b(pgw_[a-z0-9_]+)\s*(?:\\f[BIRP])*\s*"?\s*\(/g;
	}
} elsif ($what eq 'check') {
	my ($man, $example) = @ARGV[2, 3];
	my $self = $0;
	my (@hnames, %hproto, %mproto, %entry, %ref, @mnames, @ex);
	for (`"$^X" "$self" header "$file"`) {
		chomp;
		next unless /^proto (\S+)\t(.*)$/;
		push @hnames, $1;
		$hproto{$1} = $2;
	}
	die "$file: no functions found\n" unless @hnames;
	for (`"$^X" "$self" man "$man"`) {
		chomp;
		if (/^proto (\S+)\t(.*)$/) {
			print "twice $1\n" if exists $mproto{$1};
			$mproto{$1} = $2;
			push @mnames, $1;
		} elsif (/^entry (\S+)$/) {
			$entry{$1} = 1;
		} elsif (/^ref (\S+)$/) {
			$ref{$1} = 1;
		} elsif (/^example (.*)$/s) {
			push @ex, $1;
		}
	}
	for my $n (@hnames) {
		if (!exists $mproto{$n} || !$entry{$n}) {
			print "undocumented $n\n";
		} elsif ($mproto{$n} ne $hproto{$n}) {
			print "differs $n\n";
		}
	}
	for my $n (sort keys %{{ map { $_ => 1 } @mnames, keys %entry, keys %ref }}) {
		print "stale $n\n" unless exists $hproto{$n};
	}
	my @want = grep { exists $mproto{$_} } @hnames;
	my @got = grep { exists $hproto{$_} } @mnames;
	for my $i (0 .. $#want) {
		next if defined $got[$i] && $got[$i] eq $want[$i];
		print "order $want[$i]\n";
		last;
	}
	open(my $ef, '<', $example) or die "$example: $!\n";
	my @src = map { chomp; $_ } <$ef>;
	close $ef;
	for my $i (0 .. ($#src > $#ex ? $#src : $#ex)) {
		my ($s, $e) = ($src[$i] // '<end>', $ex[$i] // '<end>');
		next if $s eq $e;
		print "example ", $i + 1, ": $e\n";
		last;
	}
} else {
	die "usage: apidoc.pl header|man FILE | check HEADER MAN EXAMPLE\n";
}
