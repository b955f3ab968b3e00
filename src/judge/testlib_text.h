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
    /* A file testlib does not check the end of (all but the contestant's
     * output, which it must see read to its end) is read in one go: testlib's
     * reader takes tens of nanoseconds a byte, most of checking a long line. */
    if (!in.stdfile && in.mode != _output) {
        if (std::FILE *f = std::fopen(in.name.c_str(), "rb")) {
            static char chunk[1 << 16];
            size_t got;
            long size = std::fseek(f, 0, SEEK_END) == 0 ? std::ftell(f) : -1;
            std::rewind(f);
            if (size > 0)
                text.reserve((size_t)size); /* one allocation: growing it page by page costs more than reading */
            while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0)
                text.append(chunk, got);
            bool failed = std::ferror(f) != 0;
            std::fclose(f);
            if (!failed)
                return text;
            text.clear();
        }
    }
    for (;;) {
        while (!in.eof())
            text += in.readChar();
        if (!in.stdfile || feof(stdin))
            return text;
        text += '\xff';
    }
}

#endif
