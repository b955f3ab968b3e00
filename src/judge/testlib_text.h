/* coinrow — a testlib stream's every byte, for the exported testlib programs
 * (src/judge/main/check.cpp and val.cpp): coinrow's core reads the text itself, so
 * that every checker follows one token grammar (contest.h). */
#ifndef CR_JUDGE_TESTLIB_TEXT_H
#define CR_JUDGE_TESTLIB_TEXT_H

/* Whether the file `name` starts with a UTF-8 byte order mark and holds
 * `size` bytes. */
static bool cr_testlib_bom_of(const std::string &name, size_t size)
{
    std::FILE *f = std::fopen(name.c_str(), "rb");
    char head[3] = {0, 0, 0};
    bool bom = f && std::fread(head, 1, 3, f) == 3 && std::memcmp(head, "\xEF\xBB\xBF", 3) == 0 &&
               std::fseek(f, 0, SEEK_END) == 0 && std::ftell(f) == (long)size;
    if (f)
        std::fclose(f);
    return bom;
}

/* The rest of `in`.  testlib's reader of standard input (where a validator,
 * or a checker converted for DOMjudge, reads) takes a 0xFF byte for the end of
 * the stream: a byte that was no end is kept and the reading goes on.  The
 * contestant's output comes whole: registerTestlibCmd skips a BOM at its
 * start, and coinrow's core skips one too, so a file that starts with two
 * was read as one that starts with none, where every other checker says
 * presentation error; the BOM testlib skipped is put back. */
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
        if (!in.stdfile && in.mode == _output && cr_testlib_bom_of(in.name, text.size() + 3))
            return "\xEF\xBB\xBF" + text;
        if (!in.stdfile || feof(stdin))
            return text;
        text += '\xff';
    }
}

#endif
