#!/usr/bin/env python3
"""Converts a Polygon package into a Kattis/DOMjudge one the way
Polygon2DOMjudge (cn-xcpc-tools) does, so that make test-judges can check
that the conversion judges with coinrow's testlib checker:

  p2d.py POLYGON_DIR TESTLIB_H OUT_DIR

- problem.yaml (name, memory limit, validation: custom) and
  domjudge-problem.ini (the time limit), from problem.xml;
- data/sample and data/secret from the tests (sample="true" ones are samples),
  named %02d as Polygon2DOMjudge names them;
- output_validators/checker/: the testlib checker as it is, beside a testlib.h
  patched for the DOMjudge/Kattis convention as Polygon2DOMjudge patches it:
  ok exits 42, wrong answer, presentation error and the like 43 (fail keeps
  3: a judge error), and registerTestlibCmd reads INPUT JURY_ANSWER
  FEEDBACK_DIR with the contestant's output on standard input and its message
  in FEEDBACK_DIR/judgemessage.txt;
- submissions/ from the solutions, by tag, as Polygon2DOMjudge's tag table
  says: a tag of one verdict goes to its folder (memory-limit-exceeded to
  run_time_error, as DOMjudge reports it), a tag of several (rejected: any
  verdict but accepted) to submissions/mixed/, the source followed by a
  comment naming them for DOMjudge ("@EXPECTED_RESULTS@: WRONG-ANSWER,
  TIMELIMIT, RUN-ERROR"), which problemtools does not judge;
- problem_statement/problem.pdf from the PDF statement;
- an interactive problem (an <interactor> among the assets) as Polygon2DOMjudge
  converts one: `validation: custom interactive`, the interactor in
  output_validators/interactor/ beside the same patched testlib.h, whose
  registerInteraction then reads INPUT JURY_ANSWER FEEDBACK_DIR and opens no
  tout (the checker, which Polygon runs on tout, is left out: the
  interactor's verdict is the verdict), and every test in data/secret (it
  forces --hide-sample: DOMjudge shows no interaction).
"""
import os
import re
import shutil
import sys
import xml.etree.ElementTree as ET

REJECTED = ["wrong_answer", "time_limit_exceeded", "run_time_error"]
TAGS = {"main": ["accepted"], "accepted": ["accepted"], "wrong-answer": ["wrong_answer"],
        "presentation-error": ["wrong_answer"], "time-limit-exceeded": ["time_limit_exceeded"],
        "time-limit-exceeded-or-accepted": ["time_limit_exceeded", "accepted"],
        "time-limit-exceeded-or-memory-limit-exceeded": ["time_limit_exceeded", "run_time_error"],
        "memory-limit-exceeded": ["run_time_error"], "rejected": REJECTED, "failed": REJECTED}
# DOMjudge's names of the verdicts, and how a comment starts, by Polygon's language
DOMJUDGE = {"accepted": "CORRECT", "wrong_answer": "WRONG-ANSWER", "time_limit_exceeded": "TIMELIMIT",
            "run_time_error": "RUN-ERROR"}
COMMENT = {"c": "//", "cpp": "//", "python": "#"}

EXIT_CODES = {"OK_EXIT_CODE": "0", "WA_EXIT_CODE": "1", "PE_EXIT_CODE": "2", "DIRT_EXIT_CODE": "4",
              "UNEXPECTED_EOF_EXIT_CODE": "8"}

REGISTER_TAIL = """    if (argc == 4) {
        resultName = args[3] + "/judgemessage.txt";
        appesMode = false;
    }

    inf.init(args[1], _input);
    ouf.init(stdin, _output);
    ouf.skipBom();
    ans.init(args[2], _answer);
}
"""


INTERACTION_TAIL = """    if (argc == 4) {
        resultName = std::string(argv[3]) + "/judgemessage.txt";
        appesMode = false;
    }

    inf.init(argv[1], _input);
    ouf.init(stdin, _output);
    ans.init(argv[2], _answer);
}
"""


def replace_tail(text, head, tail):
    """The body of the function that starts with head, after its --help call, replaced by tail."""
    start = text.index(head)
    help_call = text.index("__testlib_help();", start) + len("__testlib_help();\n")
    end = text.index("\n}\n", help_call) + 3
    return text[:help_call] + "\n" + tail + text[end:]


def patch_testlib(text):
    for name, plain in EXIT_CODES.items():
        value = "42" if name == "OK_EXIT_CODE" else "43"
        text, count = re.subn(r"(#\s*define %s )%s\n" % (name, plain), r"\g<1>%s\n" % value, text)
        if count != 1:
            sys.exit("p2d.py: testlib.h: cannot find %s %s" % (name, plain))
    text = replace_tail(text, "void registerTestlibCmd(int argc, char *argv[]) {", REGISTER_TAIL)
    return replace_tail(text, "void registerInteraction(int argc, char *argv[]) {", INTERACTION_TAIL)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: p2d.py POLYGON_DIR TESTLIB_H OUT_DIR")
    src, testlib, out = sys.argv[1:]
    root = ET.parse(os.path.join(src, "problem.xml")).getroot()
    name = root.find("names/name[@language='english']").attrib["value"]
    testset = root.find("judging/testset")
    time_limit = int(testset.find("time-limit").text) / 1000.0
    memory = int(testset.find("memory-limit").text) // (1024 * 1024)
    inputs, answers = testset.find("input-path-pattern").text, testset.find("answer-path-pattern").text
    interactor = root.find("assets/interactor/source")
    os.makedirs(out)
    with open(os.path.join(out, "problem.yaml"), "w") as f:
        f.write('name: "%s"\nlimits:\n  memory: %d\nvalidation: custom%s\n'
                % (name.replace('"', '\\"'), memory, " interactive" if interactor is not None else ""))
    with open(os.path.join(out, "domjudge-problem.ini"), "w") as f:
        f.write("timelimit = %g\n" % time_limit)
    for group in ("sample", "secret"):
        os.makedirs(os.path.join(out, "data", group))
    for k, test in enumerate(testset.findall("tests/test"), 1):
        group = "sample" if test.attrib.get("sample") == "true" and interactor is None else "secret"
        shutil.copyfile(os.path.join(src, inputs % k), os.path.join(out, "data", group, "%02d.in" % k))
        shutil.copyfile(os.path.join(src, answers % k), os.path.join(out, "data", group, "%02d.ans" % k))
    validator = "interactor" if interactor is not None else "checker"
    checker = os.path.join(out, "output_validators", validator)
    os.makedirs(checker)
    source = root.find("assets/%s/source" % validator).attrib["path"]
    shutil.copyfile(os.path.join(src, source), os.path.join(checker, os.path.basename(source)))
    with open(testlib) as f:
        patched = patch_testlib(f.read())
    with open(os.path.join(checker, "testlib.h"), "w") as f:
        f.write(patched)
    for solution in root.findall("assets/solutions/solution"):
        source = solution.find("source")
        verdicts = TAGS[solution.attrib["tag"]]
        folder = os.path.join(out, "submissions", verdicts[0] if len(verdicts) == 1 else "mixed")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(src, source.attrib["path"]), "rb") as f:
            text = f.read()
        if len(verdicts) > 1:
            comment = COMMENT[source.attrib["type"].split(".")[0]]
            text += ("\n%s @EXPECTED_RESULTS@: %s\n" % (comment, ", ".join(DOMJUDGE[v] for v in verdicts))).encode()
        with open(os.path.join(folder, os.path.basename(source.attrib["path"])), "wb") as f:
            f.write(text)
    pdf = root.find("statements/statement[@type='application/pdf']")
    if pdf is not None:
        os.makedirs(os.path.join(out, "problem_statement"))
        shutil.copyfile(os.path.join(src, pdf.attrib["path"]), os.path.join(out, "problem_statement", "problem.pdf"))


if __name__ == "__main__":
    main()
