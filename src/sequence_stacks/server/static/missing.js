// The page for a table or replay link that leads nowhere (#15): its words in the
// reader's language and the language menu; the link back to the lobby works without it.

import { loadWords } from "./messages.js";
import { setUpPage } from "./pagewords.js";

loadWords()
  .catch((error) => console.error(`the messages did not load: ${error}`))
  .finally(setUpPage);
