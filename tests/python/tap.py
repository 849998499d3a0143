"""Run the Python package's unittest suite as TAP for prove (through
tests/cli/python.t): the plan first (every test case counted, so a suite
that stops early fails), one line per test, skips said with their reason
(failures under PGW_STRICT=1, as the shell tests' are)."""
import os
import sys
import unittest

STRICT = bool(os.environ.get("PGW_STRICT"))


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n = 0
        self.bad = 0

    def _line(self, ok, test, note=""):
        self.n += 1
        if not ok:
            self.bad += 1
        print("%s %d - %s%s" % ("ok" if ok else "not ok", self.n, test.id(),
                                note), flush=True)

    def addSuccess(self, test):
        self._line(True, test)

    def _trace(self, test, err, what):
        self._line(False, test)
        for line in self._exc_info_to_string(err, test).splitlines():
            print("#   " + line)

    def addFailure(self, test, err):
        self._trace(test, err, "failure")

    def addError(self, test, err):
        self._trace(test, err, "error")

    def addSkip(self, test, reason):
        if STRICT:
            self._line(False, test, " (skipped under PGW_STRICT: %s)" % reason)
        else:
            self._line(True, test, " # skip %s" % reason)

    def addExpectedFailure(self, test, err):
        self._line(False, test, " (expected failures are not allowed)")

    def addUnexpectedSuccess(self, test):
        self._line(False, test, " (unexpected success)")

    def addSubTest(self, test, subtest, err):
        if err is not None:
            self._trace(subtest, err, "subtest")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py",
                                                top_level_dir=here)
    print("1..%d" % suite.countTestCases(), flush=True)
    result = TapResult()
    suite.run(result)
    # Errors outside a test (a module that failed to import) are counted
    # by unittest as failing "tests" of their own.
    sys.exit(1 if result.bad or result.n != suite.countTestCases() else 0)


if __name__ == "__main__":
    main()
