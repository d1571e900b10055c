// Shows the board page's frame (bar, form, "Loading the board…") while the modules load and the
// socket connects, instead of in the same frame as the board. A classic script, run where it is
// included at the end of <body>: a file of its own, since the Content-Security-Policy allows no
// inline script.
// Only with a key in the fragment: a link without one ends on the "incomplete link" page instead.
// Its role is a hint until the server's `access` (main.js): a view link shows no edit controls.
{
  const role = /^#(?:.*&)?(owner|edit|view)=/.exec(location.hash);
  if (/^\/b\/[A-Za-z0-9_-]{1,64}\/?$/.test(location.pathname) && role) {
    const page = document.getElementById("board-page");
    page.dataset.role = role[1];
    page.hidden = false;
  }
}
