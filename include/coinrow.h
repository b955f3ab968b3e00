/* coinrow — the pure solver core for the "coins in a row" game. */
#ifndef CR_COINROW_H
#define CR_COINROW_H

#include "coinrow/compare.h"
#include "coinrow/contest.h"
#include "coinrow/error.h"
#include "coinrow/game.h"
#include "coinrow/gen.h"
#include "coinrow/jury.h"
#include "coinrow/moves.h"
#include "coinrow/number.h"
#include "coinrow/rng.h"
#include "coinrow/solve.h"
#include "coinrow/strategy.h"
#include "coinrow/stress.h"

#endif
