/* Helpers shared by the core's files; not part of the public API. */
#ifndef CR_CORE_INTERNAL_H
#define CR_CORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/game.h"

/* The core also compiles as C++ (inside the exported testlib checker), which
 * spells restrict differently. */
#ifdef __cplusplus
#define CR_RESTRICT __restrict
#else
#define CR_RESTRICT restrict
#endif

/* A vectorising hint for loops (gcc's -fopenmp-simd).  g++ warns about it
 * even where a pragma turns the warning off, and the C++ build (the testlib
 * programs) does without it. */
#ifdef __cplusplus
#define CR_OMP_SIMD
#else
#define CR_OMP_SIMD _Pragma("omp simd")
#endif

/* One copy of a 64-bit inner loop per instruction set, picked at load time
 * (a glibc ifunc), so that one portable binary still runs AVX2/AVX-512 code
 * where it can.  -DCR_NO_TARGET_CLONES builds one generic copy, e.g. for a
 * judge whose C library has no ifunc. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(CR_NO_TARGET_CLONES)
#define CR_WIDE_TARGETS __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CR_WIDE_TARGETS
#endif

/* Every figure of the game fits in 128 bits for n <= CR_N_MAX: leads are
 * bounded by the sum of |coin|, remaining-sum scores by n times that. */
__extension__ typedef __int128 cr_i128;

/* snprintf for the core, with cr_error_set's conversions; cap > 0. */
void cr_error__format(char *buf, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Index of the name among names[0..count) equal to text[0..len), or -1. */
int cr_game__find_name(const char *const *names, int count, const char *text, size_t len);

/* Parses text as one of names[0..count) into *out; CR_EINVAL otherwise, the
 * message naming `what` and listing `expected` ("total, diff or winner"). */
int cr_game__parse_name(int *out, const char *const *names, int count, const char *what, const char *expected,
                        const char *text, cr_error *err);

/* Sum of the coins and sum of their absolute values. */
void cr_figures__sums(cr_i128 *out_sum, cr_i128 *out_abs_sum, const int64_t *coins, size_t n);

/* v in decimal into out (cap bytes; 41 hold any value). */
void cr_figures__format(char *out, size_t cap, cr_i128 v);

/* Stores v in *out when it fits in int64; otherwise fills err naming `what`
 * and returns CR_EOVERFLOW. */
int cr_figures__fit_i64(int64_t *out, cr_i128 v, const char *what, cr_error *err);

/* The lead of the standard game (the mover's total minus the other's, both
 * maximizing it) on coins[0..n), or on their negations when `negate` is set:
 * the remaining-sum game's moves are the standard game's on negated coins. */

/* O(n) peak merging.  Writes the fast line into line[0..n) when line is not
 * NULL and the coins' sum into *out_sum.  Work arrays come from the caller:
 * vals holds n cr_i128 and counts n uint32_t. */
void cr_linear__lead(cr_i128 *out_lead, cr_i128 *out_sum, const int64_t *coins, size_t n, int negate,
                     void *vals, uint32_t *counts, char *line);

/* The diagonal sweep over every interval (interval DP, O(n) memory). */
int cr_sweep__lead(cr_i128 *out_lead, const int64_t *coins, size_t n, int negate, cr_error *err);

/* The ends of a row, for the reduced row (reduced_impl.h). */
enum { CR_END_LEFT, CR_END_RIGHT };

/* The players whose turns the verifier judges: the first's are the even
 * turns, the second's the odd ones. */
enum { CR_REDUCED_FIRST = 1u, CR_REDUCED_SECOND = 2u, CR_REDUCED_BOTH = 3u };

/* The first bad turn of a line, and the mover's leads there: the best to be
 * had, and what the move played got. */
typedef struct cr_reduced__bad {
    size_t turn; /* SIZE_MAX when every turn judged is optimal */
    cr_i128 best, got;
} cr_reduced__bad;

/* The first suboptimal turn of line[0..legal), legal moves (legal <= n), on
 * coins[0..n) among the turns of `players` into *out: O(n log n) time, O(n)
 * memory.  The game is the standard one, or with `negate` the remaining-sum
 * game; a move is suboptimal when it loses lead, or with `by_outcome` when
 * it changes the sign of the mover's lead (the winner variant's outcome).
 * CR_ENOMEM when the work arrays cannot be had. */
int cr_reduced__first_bad(cr_reduced__bad *out, const int64_t *coins, size_t n, int negate, const char *line,
                          size_t legal, unsigned players, int by_outcome, cr_error *err);

/* Both players' scores along a line of exactly n legal moves, in 128 bits. */
int cr_moves__scores(cr_i128 out[2], const int64_t *coins, size_t n, cr_variant variant, const char *line, size_t len,
                     cr_error *err);

/* Refuses a canonical line of n coins for want of memory: CR_ENOMEM in err,
 * saying how many MiB it needs (cr_moves_canonical_bytes). */
int cr_moves__no_memory(cr_error *err, size_t n);

/* The variant's value of a line that scores `scores`: the first player's
 * score for total, the lead for diff and remaining, its sign for winner. */
cr_i128 cr_moves__value(const cr_i128 scores[2], cr_variant variant);

/* Plain exponential minimax; the caller keeps n <= CR_NAIVE_MAX_N. */
cr_i128 cr_naive__lead(const int64_t *coins, size_t n, int negate);

#endif
