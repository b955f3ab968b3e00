# Writes a C source without its comments: each /* */ or // comment becomes
# one space, string and character literals are kept whole, and lines left
# with blanks alone are dropped.  The core amalgamated into the judge
# programs goes through it, so that an exported submission stays within
# Kattis' code size limit (128 KiB): the comments are in coinrow's sources.
# POSIX awk, a line at a time (a literal does not span lines in coinrow).
#   awk -f scripts/strip-comments.awk core.c > stripped.c
{
    line = $0
    n = length(line)
    out = ""
    i = 1
    if (in_block) { # inside a comment that began on a line before
        end = index(line, "*/")
        if (end == 0)
            next
        in_block = 0
        out = " "
        i = end + 2
    }
    from = i # line[from..i) is kept, not yet in out
    while (i <= n) {
        c = substr(line, i, 1)
        two = substr(line, i, 2)
        if (c == "\"" || c == "'") { # a literal: to its closing quote, escapes skipped
            for (i++; i <= n && substr(line, i, 1) != c; i++)
                if (substr(line, i, 1) == "\\")
                    i++
            i++
        } else if (two == "/*") {
            out = out substr(line, from, i - from) " "
            end = index(substr(line, i + 2), "*/")
            if (end == 0) {
                in_block = 1
                from = n + 1
                break
            }
            i += end + 3
            from = i
        } else if (two == "//") {
            out = out substr(line, from, i - from)
            from = n + 1
            break
        } else {
            i++
        }
    }
    out = out substr(line, from)
    if (out !~ /^[ \t]*$/)
        print out
}
END {
    if (in_block) {
        print "strip-comments: a comment that never ends" > "/dev/stderr"
        exit 1
    }
}
