/*
 * A page of the demo's packages (scripts/demo/packages.ts): starts the launch, and finishes it from the page's
 * quiz (each question a fieldset with `data-answer`, the correct choice's value) or its Finish button.
 */
(function () {
  "use strict";
  var status = document.getElementById("status");
  var done = document.getElementById("done");
  var quiz = document.getElementById("quiz");
  var finishButton = document.getElementById("finish");
  function say(text) {
    status.textContent = text;
  }
  function ended(text) {
    say(text);
    if (quiz) quiz.querySelector("button[type=submit]").disabled = true;
    if (finishButton) finishButton.disabled = true;
    done.hidden = false;
    done.querySelector("button").focus();
  }
  done.querySelector("button").addEventListener("click", function () {
    window.LecternAU.leave();
  });
  window.LecternAU.start().then(
    function (launch) {
      document.body.classList.add("ready");
      if (launch.launchMode !== "Normal") say("Review: your answers are not recorded this time.");
      if (quiz)
        quiz.addEventListener("submit", function (event) {
          event.preventDefault();
          var questions = Array.prototype.slice.call(quiz.querySelectorAll("fieldset"));
          var right = 0;
          var answers = questions.map(function (fieldset) {
            var chosen = fieldset.querySelector("input:checked");
            var correct = Boolean(chosen && chosen.value === fieldset.getAttribute("data-answer"));
            if (correct) right++;
            return window.LecternAU.answered(
              fieldset.id,
              fieldset.querySelector("legend").textContent,
              chosen ? chosen.value : "",
              correct,
            );
          });
          var scaled = questions.length ? Math.round((right / questions.length) * 100) / 100 : null;
          say("Saving…");
          Promise.all(answers)
            .then(function () {
              return window.LecternAU.finish(scaled);
            })
            .then(
              function () {
                ended("You answered " + right + " of " + questions.length + " correctly.");
              },
              function () {
                say("Your answers could not be saved. Try again.");
              },
            );
        });
      if (finishButton)
        finishButton.addEventListener("click", function () {
          say("Saving…");
          window.LecternAU.finish(null).then(
            function () {
              ended("Done. Well read!");
            },
            function () {
              say("This could not be saved. Try again.");
            },
          );
        });
    },
    function (error) {
      say(error.message);
    },
  );
})();
