// Sets a report's review through POST /api/review (NOTE [review-csrf] in summaries/web/triage.py):
// the page's token in a header, a JSON body. Shown text is set with textContent, never as HTML.
"use strict";
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!form.classList.contains("review-form")) return;
  event.preventDefault();
  const token = document.querySelector('meta[name="saturn-token"]').content;
  const body = {fingerprint: form.dataset.fp, status: form.elements.status.value,
                comment: form.elements.comment.value, author: form.elements.author.value};
  const error = form.querySelector(".review-error");
  error.textContent = "";
  try {
    const resp = await fetch("/api/review", {method: "POST", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-Saturn-Token": token}});
    const data = await resp.json();
    if (!resp.ok) { error.textContent = data.error; return; }
    const cell = form.parentElement;
    cell.querySelector(".review").textContent = data.review.status;
    cell.querySelector(".review-comment").textContent = data.review.comment;
    form.dataset.saved = data.review.status;
  } catch (e) {
    error.textContent = String(e);
  }
});
