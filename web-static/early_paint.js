// Shows the board page's frame (bar, form, "Loading the board…") while the modules load and the
// socket connects, instead of in the same frame as the board. A classic script, run where it is
// included at the end of <body>: a file of its own, since the Content-Security-Policy allows no
// inline script.
// Only on a board's path with a key in the fragment: a link without one ends on the "incomplete
// link" page instead. A hint only: the modules decide (wire/links.js reads the board's path, and a
// path that is no board's gets the start page, which hides this frame). The role is a hint until
// the server's `access` (pages/board.js): a view link shows no edit controls.
{
  const role = /^#(?:.*&)?(owner|edit|view)=/.exec(location.hash);
  // A display (/b/ID/display) has a page of its own (pages/display.js), with no frame to show early.
  if (location.pathname.startsWith("/b/") && !/\/display(\/|$)/.test(location.pathname) && role) {
    const page = document.getElementById("board-page");
    page.dataset.role = role[1];
    page.hidden = false;
  }
}
