// The rules help shown in a dialog (a summary of RULES.md).

export const RULES_HTML = `
<h2>How to play Sequence Stacks</h2>
<p><b>Goal.</b> Be the first to hold <b>5 chips with at least 2 of each colour</b> (the
table may use other numbers; see the settings). You win a chip by completing a sequence.</p>
<h3>Your turn</h3>
<ol>
  <li>Draw until you hold 5 cards.</li>
  <li>Play as many cards as you like, one at a time, from your hand or from the top of
  your own discard pile, onto the shared sequence piles.</li>
  <li>End the turn by discarding one card from your hand onto your discard pile.</li>
</ol>
<h3>Sequence piles</h3>
<p>At most two piles of each colour. A <b>1</b> starts a pile, then each card is one higher:
1, 2, 3, 4, 5. <b>Wilds</b> stand for any number of their own colour. The card that makes a
pile five long completes it and its player takes a chip of that colour, unless an
opponent <b>blocks</b>.</p>
<p>If your hand empties during your turn you draw five more and keep playing.</p>
<h3>Action cards</h3>
<ul>
  <li><b>Skip</b>: the next player loses their turn.</li>
  <li><b>Reverse</b>: the direction of play flips.</li>
  <li><b>Steal a card</b>: take the top card of an opponent's discard pile.</li>
  <li><b>Steal a chip</b>: take a chip from an opponent (never the chip that would win).</li>
  <li><b>Block</b>: when an opponent completes a sequence, everyone else is asked
  "Block or pass?" at the same moment, with the same deadline. Blocking discards the
  sequence and no chip is taken. No answer in time is a pass.</li>
</ul>
<h3>Using this page</h3>
<p>Select a card (click, or Tab to it and press Enter): the places where it can go light
up. Choose one. Keys: <kbd>1</kbd>-<kbd>9</kbd> select cards in your hand, <kbd>D</kbd>
discards the selected card, <kbd>Esc</kbd> clears the selection, <kbd>B</kbd>/<kbd>P</kbd>
answer a Block prompt, <kbd>?</kbd> opens this help.</p>
`;
