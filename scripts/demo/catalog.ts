import type { DemoCarousel, DemoCourseContent } from "./content";

/** What the demo courses hold, by organization and course title (scripts/demo.ts lists the courses). */
export const CATALOG: Record<string, { content: Record<string, DemoCourseContent>; carousels: DemoCarousel[] }> = {
  acme: {
    content: {
      "Welcome to Acme": {
        episodes: [
          {
            kind: "video",
            title: "Welcome to Acme",
            clip: 0,
            body: "Meet the people behind Acme and find out what a first week here looks like.",
          },
        ],
        links: [{ title: "Acme on the web", url: "https://example.com/acme" }],
      },
      "Workplace Safety Essentials": {
        episodes: [
          {
            kind: "video",
            title: "Why safety matters",
            clip: 1,
            body: "Most accidents at work are preventable. This episode shows where they start.",
          },
          { kind: "image", title: "Know your exits", body: "Find the two nearest exits from your desk before you need them." },
          {
            kind: "video",
            title: "Protective equipment",
            clip: 2,
            body: "Gloves, glasses and boots: what to wear, when, and how to check it.",
          },
          {
            kind: "text",
            title: "Reporting a near miss",
            body: "<p>A near miss is an accident that almost happened. Report it the same day, even when nobody was hurt:</p><ol><li>Make the place safe.</li><li>Tell your team lead.</li><li>Write what happened in the safety log.</li></ol><p>Every report helps us fix the cause before someone gets hurt.</p>",
          },
          { kind: "video", title: "When something goes wrong", clip: 3, body: "First aid, the alarm and who to call." },
        ],
        materials: [
          {
            title: "Safety checklist",
            paragraphs: [
              "Use this checklist at the start of every shift.",
              "1. Walkways are clear of boxes, cables and spills.",
              "2. Your protective equipment is clean, whole and fits.",
              "3. You know where the nearest first-aid kit and fire extinguisher are.",
              "4. Machines have their guards in place and their emergency stops work.",
              "5. Anything that is not right has been reported in the safety log.",
            ],
          },
        ],
        links: [{ title: "European Agency for Safety and Health at Work", url: "https://osha.europa.eu/" }],
      },
      "Data Protection Basics": {
        episodes: [
          {
            kind: "video",
            title: "What is personal data?",
            clip: 2,
            body: "Names, e-mail addresses, customer numbers — and less obvious ones.",
          },
          {
            kind: "text",
            title: "The six principles",
            body: "<p>The GDPR asks us to handle personal data lawfully, for a clear purpose, keeping only what we need, keeping it accurate, keeping it no longer than needed, and keeping it safe.</p><p>When in doubt, ask the data protection officer before you share anything.</p>",
          },
          {
            kind: "video",
            title: "Everyday situations",
            clip: 0,
            body: "A customer asks what we know about them. A colleague asks for a list of addresses.",
          },
        ],
        materials: [
          {
            title: "Data protection quick guide",
            paragraphs: [
              "Personal data is any information about a person who can be identified.",
              "Share it only with those who need it for their work, and only through our approved tools.",
              "Report a lost laptop or a mail sent to the wrong person at once: we have 72 hours to tell the authority.",
            ],
          },
        ],
      },
      "Customer Service Handbook": {
        document: {
          title: "Customer Service Handbook",
          paragraphs: [
            "Welcome to the support team. This handbook is what we work from every day.",
            "Greet every customer by name, listen first, and write down what they need before you answer.",
            "Answer every mail within one working day, even if the answer is that you are still looking into it.",
            "When you cannot solve something, hand it over with everything you know, so the customer never has to explain twice.",
            "Close every case with a short summary of what was done.",
          ],
        },
      },
      "Project Management Fundamentals": {
        episodes: [
          { kind: "video", title: "Kick-off", clip: 3, body: "Goals, scope and the people you need." },
          {
            kind: "text",
            title: "Estimating",
            body: "<p>Break the work into pieces no bigger than two days. Estimate each, add them up, then add a buffer for what you have not thought of yet.</p>",
          },
          { kind: "image", title: "The project board", body: "To do, doing, done: one glance tells the whole team where things stand." },
          {
            kind: "video",
            title: "Running the retrospective",
            clip: 1,
            body: "What went well, what did not, and what we change next time.",
          },
        ],
        materials: [{ title: "Project plan template", paragraphs: ["Goal:", "Scope:", "Milestones:", "Risks:", "Team and roles:"] }],
      },
      "Advanced Negotiation (draft)": {
        episodes: [{ kind: "video", title: "Preparing a negotiation", clip: 2 }],
      },
    },
    carousels: [
      { title: "Start here", courses: ["Welcome to Acme", "Workplace Safety Essentials", "Data Protection Basics"] },
      {
        title: "Grow your skills",
        courses: ["Project Management Fundamentals", "Customer Service Handbook", "Workplace Safety Essentials"],
      },
    ],
  },
  nordlys: {
    content: {
      "Velkommen til Nordlys": {
        episodes: [
          {
            kind: "video",
            title: "Velkommen til Nordlys",
            clip: 0,
            body: "Mød menneskerne bag Nordlys og se, hvordan din første uge bliver.",
          },
        ],
      },
      "Førstehjælp på arbejdspladsen": {
        episodes: [
          { kind: "video", title: "Hjertestop", clip: 1, body: "Ring 112, start hjertemassage og hent hjertestarteren." },
          { kind: "video", title: "Forbrændinger", clip: 2, body: "Køl med lunkent vand i mindst 20 minutter." },
          {
            kind: "text",
            title: "Sådan kalder du hjælp",
            body: "<p>Ring 112. Sig hvem du er, hvor du er, og hvad der er sket. Læg ikke på, før alarmcentralen siger det.</p>",
          },
          { kind: "image", title: "Hjertestartere i huset", body: "Der hænger hjertestartere ved hovedindgangen og i kantinen." },
        ],
        materials: [
          {
            title: "Førstehjælpskort",
            paragraphs: [
              "1. Skab sikkerhed.",
              "2. Ring 112.",
              "3. Giv hjertemassage: 30 tryk, 2 indblæsninger.",
              "4. Brug hjertestarteren, så snart den er der.",
            ],
          },
        ],
        links: [{ title: "Dansk Førstehjælpsråd", url: "https://www.foersthjaelpsraad.dk/" }],
      },
      "Bæredygtighed i hverdagen": {
        episodes: [
          { kind: "video", title: "Energi", clip: 3, body: "Sluk skærmen, når du går, og luk vinduet, når varmen er tændt." },
          {
            kind: "text",
            title: "Affald",
            body: "<p>Vi sorterer i seks fraktioner: mad, papir, pap, plast, metal og restaffald. Spandene står ved køkkenet.</p>",
          },
          { kind: "video", title: "Transport", clip: 0, body: "Cykel, tog eller samkørsel: sådan kommer du på arbejde med mindre CO₂." },
        ],
      },
      Medarbejderhåndbog: {
        document: {
          title: "Medarbejderhåndbog",
          paragraphs: [
            "Velkommen til Nordlys. Her finder du det vigtigste om din ansættelse.",
            "Ferie: Du optjener 2,08 feriedage om måneden. Ferie aftales med din leder senest fire uger før.",
            "Sygdom: Giv besked til din leder inden kl. 9 på første sygedag.",
            "Arbejdstid: 37 timer om ugen med fleksibel mødetid mellem kl. 7 og 10.",
          ],
        },
      },
      "Ledelse for nye ledere (kladde)": {
        episodes: [{ kind: "video", title: "Din første dag som leder", clip: 1 }],
      },
    },
    carousels: [
      { title: "Kom godt i gang", courses: ["Velkommen til Nordlys", "Medarbejderhåndbog", "Førstehjælp på arbejdspladsen"] },
      { title: "Populært lige nu", courses: ["Bæredygtighed i hverdagen", "Førstehjælp på arbejdspladsen"] },
    ],
  },
};
