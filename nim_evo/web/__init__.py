"""Champions in a web page: the page, and the champion's moves in JavaScript."""
