// Shows the board page's frame (bar, form, "Loading the board…") while the modules load and the
// socket connects, instead of in the same frame as the board. A classic script, run where it is
// included at the end of <body>: a file of its own, since the Content-Security-Policy allows no
// inline script.
if (/^\/b\/[A-Za-z0-9_-]{1,64}\/?$/.test(location.pathname)) document.getElementById("board-page").hidden = false;
