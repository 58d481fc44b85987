/* The entry pages' first script: a classic one in <head>, run before the page paints. It marks
   <html> with the "js" class, so the form's no-JavaScript controls never flash; the form itself
   is taken over by static/js/entry.js (a module, run once the page is parsed). No inline script
   is needed. */
document.documentElement.classList.add("js");
