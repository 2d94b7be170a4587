/* A click anywhere on a dropdown's title opens or closes it (book/_ext/html_fixes.py).
 *
 * sphinx-togglebutton only understands a click on the title box itself or on parts of its
 * chevron. A click on anything inside the title - above all the link sphinx-exercise puts
 * in a solution's title ("해답 연습 1.2 (...)") - jumped to the exercise instead of opening
 * the solution, and threw "ReferenceError: button is not defined".
 */
document.addEventListener(
  "click",
  (event) => {
    const title = event.target.closest(".admonition.toggle > .admonition-title");
    const button = title && title.querySelector(":scope > .toggle-button");
    if (!button || event.target === title || event.target === button) return;
    event.preventDefault();
    event.stopPropagation();
    button.click();
  },
  true,
);
