/* coinrow — a testlib stream's every byte, for the exported testlib programs
 * (src/judge/main/check.cpp and val.cpp): coinrow's core reads the text itself, so
 * that every checker follows one token grammar (contest.h). */
#ifndef CR_JUDGE_TESTLIB_TEXT_H
#define CR_JUDGE_TESTLIB_TEXT_H

/* The rest of `in`.  testlib's reader of standard input (where a validator,
 * or a checker converted for DOMjudge, reads) takes a 0xFF byte for the end of
 * the stream: a byte that was no end is kept and the reading goes on. */
static std::string cr_testlib_text(InStream &in)
{
    std::string text;
    for (;;) {
        while (!in.eof())
            text += in.readChar();
        if (!in.stdfile || feof(stdin))
            return text;
        text += '\xff';
    }
}

#endif
