/* The entry form after a refused save: the first problem in view and focused, and the error
   summary's links leading to their fields. A module of static/js/entry.js. */

function shown(node) {
  return !node.disabled && node.getClientRects().length > 0;
}

/* The control a problem is about: the input just before its message in the same area (for
   a group of taps, its chosen one or its first), else the area's first input or button. */
function problemControl(area, problem) {
  const inputs = Array.from(
    area.querySelectorAll("input:not([type=hidden]), select, textarea")
  ).filter(shown);
  const before = problem ? inputs.filter((i) => {
    return problem.compareDocumentPosition(i) & Node.DOCUMENT_POSITION_PRECEDING;
  }) : [];
  let pick = before.length ? before[before.length - 1] : inputs[0];
  if (pick && (pick.type === "radio" || pick.type === "checkbox")) {
    const group = inputs.filter((i) => { return i.name === pick.name; });
    pick = group.filter((i) => { return i.checked; })[0] || group[0];
  }
  if (pick) return pick;
  return Array.from(area.querySelectorAll("button, [tabindex]")).filter(shown)[0];
}

export function showProblems(form) {
  const problem = form.querySelector(".field-error");
  const summary = document.querySelector("[data-error-summary], .error-summary, .form-errors");
  let target = null;
  let area = null;
  if (problem) {
    area = problem.closest("fieldset, .field, label") || problem.parentNode;
    target = problemControl(area, problem) || problem;
  } else if (summary) {
    area = summary;
    target = summary;
  }
  if (!target) return;
  if (target === summary || target === problem) {
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  }
  area.scrollIntoView({ block: "center" });
  target.focus({ preventScroll: true });
}

/* A link of the error summary moves to its field and focuses the field's first control. */
export function summaryLink(link) {
  const target = document.getElementById(link.getAttribute("href").slice(1));
  if (!target) return false;
  target.scrollIntoView({ block: "center" });
  const control = target.matches("input, select, textarea, button") ? target : problemControl(target, null);
  (control || target).focus({ preventScroll: true });
  return true;
}
