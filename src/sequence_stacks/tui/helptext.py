"""Help texts: the rules in brief (a summary of RULES.md) and the keys of each mode."""

from __future__ import annotations

from typing import Final

__all__ = ["PLAIN_COMMANDS", "RULES_SUMMARY", "TUI_KEYS"]

RULES_SUMMARY: Final = """\
THE RULES IN BRIEF (the full rule book is RULES.md; rule ids in brackets)

Goal. Win chips by completing sequences. You win the moment you hold 5 chips,
at least 2 blue and at least 2 red (R31).

Cards (R1, R2). Blue and red numbers 1-5 and wilds of each colour, plus action
cards: Skip, Reverse, Steal-a-Card, Block and Steal-a-Chip. Blue cards show a
diamond and the letter B (◆B3), red cards a dot and the letter R (●R3).

Your turn (R13-R19). You first draw up to 5 cards. Then play as many cards as
you like, one at a time, from your hand or from the top of your own discard
pile. End the turn by discarding one card from your hand onto your discard pile.
If your hand empties during your turn you draw 5 more and go on (R18).

Sequence piles (R9, R15, R16). At most two piles of each colour at a time. A 1
starts a new pile; each next card is one higher, in the pile's colour. A wild
of the pile's colour stands for whatever number is needed.

Completing a sequence (R17, R29). The card that makes a pile five long completes
it. Every opponent may then answer Block (spending a Block card from the hand)
or Pass. If nobody blocks, the completer takes a chip of the pile's colour from
the supply; if someone blocks, the pile is lost and no chip is taken. Either way
the pile goes to the pool, which is shuffled into a new draw pile when the draw
pile runs out (R22).

Action cards (R23-R30). Skip: the next player loses a turn. Reverse: the
direction of play flips. Steal-a-Card: take the top card of an opponent's
discard pile into your hand. Steal-a-Chip: take one chip from an opponent; it
can never be used to win (R28). An action card that would do nothing cannot be
played. Played action cards are gone for good (R11).

End (R33). With the draw pile and pool both empty, a whole round without a card
played to a pile ends the game with no winner; so does reaching the turn limit.

Refusals (R37). Anything illegal is refused with the id of the rule it breaks.
"""

TUI_KEYS: Final = """\
KEYS

1-9, 0      pick a card from your hand (0 is the tenth)
t           pick the top card of your own discard pile
←  →  Enter  move along your hand and pick the card under the cursor
then        1-9 or ↑ ↓ Enter to pick a target; x to discard the card (ends your turn)
Escape      drop the selection (nothing has been played yet)
e           end your turn when your hand is empty
b / p       answer a Block prompt: block or pass
+ / -       bots play slower / faster
s           save the game (resume with --load FILE)
?  h        this help          q  quit

Legal targets are marked ✓ and the piles they go on are lit; a target marked ✗
can still be tried, and the refusal names the rule that forbids it.
"""

PLAIN_COMMANDS: Final = """\
COMMANDS

a number     take the move with that number in the list
notation     take a move written in notation, e.g. B3>1, BW>new, ^R2>2, SKIP,
             SCARD>p2, SCHIP>p2:R, discard B3, end, block, pass
board        show the table again          moves   list your moves again
log          show the whole log            rules   the rules in brief
save [FILE]  save the game                 help    this list
quit         leave the game
"""
