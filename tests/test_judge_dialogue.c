/* The jury's side of the interactive game (src/judge/dialogue.c), fed by
 * hand: the bytes the program writes, what coinrow's pipe still holds, its
 * input closing.  These are the orders of events a process can show in
 * either way, pinned here one by one (test_cli_interactive.c plays whole
 * programs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "judge/judge.h"

static const int64_t coins[] = {3, 9, 1, 2, 7};
static const char row[] = "5\n3 9 1 2 7\n";

/* A game with the optimal jury, its row already written. */
static cr_dialogue *game(void)
{
    cr_dialogue *d = NULL;
    assert_int_equal(cr_dialogue_new(&d, coins, 5, CR_DIFF, 0, row, strlen(row), NULL), 0);
    const char *rest;
    assert_int_equal(cr_dialogue_pending(d, &rest), strlen(row));
    cr_dialogue_sent(d, strlen(row));
    return d;
}

/* Hears `bytes` with `unread` bytes of coinrow's unread; then writes what
 * is pending, as the runner does. */
static void hear(cr_dialogue *d, const char *bytes, size_t unread)
{
    assert_int_equal(cr_dialogue_heard(d, bytes, strlen(bytes), unread, NULL), 0);
    const char *rest;
    size_t len = cr_dialogue_pending(d, &rest);
    if (len)
        cr_dialogue_sent(d, len);
}

static void judged(cr_dialogue *d, cr_outcome verdict, const char *part)
{
    cr_outcome v;
    char message[CR_JUDGE_MESSAGE_MAX];
    assert_int_equal(cr_dialogue_judge(&v, message, sizeof message, d, NULL), 0);
    if (v != verdict || !strstr(message, part))
        fail_msg("got %s: %s; expected %s with '%s'", cr_outcome_name(v), message,
                 cr_outcome_name(verdict), part);
    cr_dialogue_free(d);
}

static void test_dialogue__a_player_that_read_the_jurys_move_then_exited_is_no_fault(void **state)
{
    (void)state;
    cr_dialogue *d = game();
    hear(d, "R\n", 0); /* 7; the jury answers */
    hear(d, "L\n", 0);
    /* it read the jury's move, wrote its last and exited: coinrow sees its
     * input closed (nothing unread) before it reads that last move */
    cr_dialogue_closed(d, 0);
    hear(d, "L\n", 0);
    assert_false(cr_dialogue_faulted(d));
    judged(d, CR_ACCEPTED, "every one of its 3 moves optimal");
}

static void test_dialogue__a_move_after_its_input_closed_with_the_jurys_unread_is_on_the_jurys_turn(void **state)
{
    (void)state;
    cr_dialogue *d = game();
    hear(d, "R\n", 0);
    cr_dialogue_closed(d, 2); /* the jury's "L\n" was never read */
    hear(d, "L\n", 0);
    judged(d, CR_WRONG_ANSWER, "turn 3: a move on the jury's turn");
}

static void test_dialogue__a_jurys_move_made_after_the_input_closed_is_lost(void **state)
{
    (void)state;
    cr_dialogue *d = game();
    cr_dialogue_closed(d, 0); /* seen before its first move, which the jury then answers into nothing */
    hear(d, "R\n", 0);
    hear(d, "L\n", 0);
    judged(d, CR_WRONG_ANSWER, "turn 3: a move on the jury's turn: it came before the program read the jury's move of "
                            "turn 2 (it had closed its standard input)");
}

static void test_dialogue__two_moves_at_once_or_one_with_the_jurys_unread_are_caught(void **state)
{
    (void)state;
    cr_dialogue *d = game();
    assert_int_equal(cr_dialogue_heard(d, "R\nL\n", 4, 0, NULL), 0); /* the answer to R not written yet */
    judged(d, CR_WRONG_ANSWER, "turn 3: a move on the jury's turn");
    d = game();
    hear(d, "R\n", 0);
    hear(d, "L\n", 2);
    judged(d, CR_WRONG_ANSWER, "turn 3: a move on the jury's turn");
    d = game();
    hear(d, "R\n", 0);
    hear(d, "L\n", 1); /* a byte-wise reader may leave the newline */
    assert_false(cr_dialogue_faulted(d));
    cr_dialogue_free(d);
}

static void test_dialogue__lines_are_taken_across_reads_and_a_long_one_is_refused_at_once(void **state)
{
    (void)state;
    cr_dialogue *d = game();
    hear(d, "R", 0);
    hear(d, "\n", 0);
    hear(d, "L\nL", 0);
    hear(d, "\n", 0);
    judged(d, CR_ACCEPTED, "every one of its 3 moves optimal");
    d = game();
    hear(d, "RRRRRRRRRRRRRRRR", 0); /* 16 bytes: not refused yet */
    assert_false(cr_dialogue_faulted(d));
    hear(d, "R", 0);
    judged(d, CR_PRESENTATION_ERROR, "turn 1: a line longer than 16 bytes");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dialogue__a_player_that_read_the_jurys_move_then_exited_is_no_fault),
        cmocka_unit_test(test_dialogue__a_move_after_its_input_closed_with_the_jurys_unread_is_on_the_jurys_turn),
        cmocka_unit_test(test_dialogue__a_jurys_move_made_after_the_input_closed_is_lost),
        cmocka_unit_test(test_dialogue__two_moves_at_once_or_one_with_the_jurys_unread_are_caught),
        cmocka_unit_test(test_dialogue__lines_are_taken_across_reads_and_a_long_one_is_refused_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
