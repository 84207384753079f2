import { eq } from "drizzle-orm";
import { readCaptionFile, saveTrack } from "../../app/models/captions.server";
import type { TenantConn } from "../../db/open";
import { lessons } from "../../db/tenant";

/**
 * The demo's captions (issue 35): every video lesson has English captions, and Nordlys's have Danish ones
 * too, written for what each episode is about (scripts/demo/catalog.ts). The clips are 12 seconds long
 * (scripts/demo/media/README.md): four cues each. They go through the same reader and model as an upload
 * (app/models/captions.server.ts), so the transcript and the search find the words spoken.
 */
type Lines = [string, string, string, string];

const TIMES = [
  ["00:00:00.500", "00:00:03.200"],
  ["00:00:03.400", "00:00:06.400"],
  ["00:00:06.600", "00:00:09.300"],
  ["00:00:09.500", "00:00:11.900"],
];

const CAPTIONS: Record<string, Record<string, { en: Lines; da?: Lines }>> = {
  acme: {
    "Welcome to Acme": {
      en: [
        "Welcome to Acme! We're glad you're here.",
        "In your first week you'll meet your team and your mentor.",
        "We make tools that help people build safer workplaces.",
        "Let's get started.",
      ],
    },
    "Why safety matters": {
      en: [
        "Most accidents at work can be prevented.",
        "They start small: a cable across a walkway, a spill nobody wiped up.",
        "Spot the hazard, then fix it or report it.",
        "Safety is everyone's job.",
      ],
    },
    "Protective equipment": {
      en: [
        "Gloves, safety glasses and boots protect you on every shift.",
        "Check your equipment before you start: no cracks, no holes.",
        "Wear hearing protection wherever the sign tells you to.",
        "Damaged equipment? Replace it the same day.",
      ],
    },
    "When something goes wrong": {
      en: [
        "If someone is hurt, make the area safe first.",
        "Raise the alarm and call the first-aid team.",
        "A first-aid kit hangs next to every fire extinguisher.",
        "Afterwards, write down what happened in the safety log.",
      ],
    },
    "What is personal data?": {
      en: [
        "Personal data is any information about a person who can be identified.",
        "Names, e-mail addresses and customer numbers are personal data.",
        "So are IP addresses, photos and voice recordings.",
        "When in doubt, treat it as personal data.",
      ],
    },
    "Everyday situations": {
      en: [
        "A customer asks what we know about them: that is an access request.",
        "Forward it to the data protection officer the same day.",
        "A colleague wants a list of addresses? Ask what it is for first.",
        "Share only what they need, through our approved tools.",
      ],
    },
    "Kick-off": {
      en: [
        "Every project starts with a kick-off meeting.",
        "Agree on the goal, the scope and what done looks like.",
        "Name the people you need, and who makes the decisions.",
        "Write it down and share it with the whole team.",
      ],
    },
    "Running the retrospective": {
      en: [
        "At the end of each milestone, hold a retrospective.",
        "What went well? What didn't?",
        "Pick one or two changes to try next time.",
        "Keep it blameless: we fix processes, not people.",
      ],
    },
    "Preparing a negotiation": {
      en: [
        "Before any negotiation, know your walk-away point.",
        "Learn what the other side needs, not only what they ask for.",
        "Prepare three options you could live with.",
        "Then practise your opening with a colleague.",
      ],
    },
  },
  nordlys: {
    "Velkommen til Nordlys": {
      da: [
        "Velkommen til Nordlys! Vi er glade for, at du er her.",
        "I din første uge møder du dit team og din mentor.",
        "Vi arbejder for en grønnere og mere sikker hverdag.",
        "God fornøjelse med kurset.",
      ],
      en: [
        "Welcome to Nordlys! We're glad you're here.",
        "In your first week you'll meet your team and your mentor.",
        "We work for a greener and safer everyday life.",
        "Enjoy the course.",
      ],
    },
    Hjertestop: {
      da: [
        "Falder en kollega om, så ring 112 med det samme.",
        "Start hjertemassage: 30 tryk midt på brystet, så 2 indblæsninger.",
        "Bed en anden om at hente hjertestarteren.",
        "Følg hjertestarterens stemme, indtil hjælpen kommer.",
      ],
      en: [
        "If a colleague collapses, call 112 at once.",
        "Start chest compressions: 30 presses in the middle of the chest, then 2 breaths.",
        "Ask someone else to fetch the defibrillator.",
        "Follow the defibrillator's voice until help arrives.",
      ],
    },
    Forbrændinger: {
      da: [
        "Køl forbrændingen med lunkent vand i mindst 20 minutter.",
        "Tag ringe og ure af, før huden hæver.",
        "Læg aldrig is direkte på huden.",
        "Ved store forbrændinger: ring 112.",
      ],
      en: [
        "Cool the burn with lukewarm water for at least 20 minutes.",
        "Take off rings and watches before the skin swells.",
        "Never put ice directly on the skin.",
        "For large burns, call 112.",
      ],
    },
    Energi: {
      da: [
        "Sluk skærmen, når du går fra din plads.",
        "Luk vinduet, når varmen er tændt.",
        "Sluk lyset i mødelokalet efter mødet.",
        "Små vaner sparer meget energi.",
      ],
      en: [
        "Switch off your screen when you leave your desk.",
        "Close the window while the heating is on.",
        "Turn off the lights in the meeting room after the meeting.",
        "Small habits save a lot of energy.",
      ],
    },
    Transport: {
      da: [
        "Cykel, tog eller samkørsel til arbejde?",
        "Fem kilometer på cykel sparer omkring et kilo CO₂.",
        "Der er cykelparkering og bad i kælderen.",
        "Find en samkørselsmakker på intranettet.",
      ],
      en: [
        "Bike, train or car-sharing to work?",
        "Five kilometres by bike saves about a kilogram of CO₂.",
        "There is bike parking and a shower in the basement.",
        "Find a car-sharing partner on the intranet.",
      ],
    },
    "Din første dag som leder": {
      da: [
        "Din første dag som leder handler om at lytte.",
        "Hold en kort samtale med hver medarbejder.",
        "Spørg, hvad der fungerer, og hvad der ikke gør.",
        "Lov kun det, du kan holde.",
      ],
      en: [
        "Your first day as a manager is about listening.",
        "Have a short talk with each person on your team.",
        "Ask what works, and what doesn't.",
        "Only promise what you can keep.",
      ],
    },
  },
};

/** A WebVTT file of four cues, as an editor would write it (a NOTE, an identifier per cue). */
function vtt(lines: Lines) {
  return `WEBVTT\n\nNOTE Lectern demo captions\n\n${lines.map((text, i) => `${i + 1}\n${TIMES[i][0]} --> ${TIMES[i][1]}\n${text}`).join("\n\n")}\n`;
}

export function seedCaptionsDemo(
  db: TenantConn,
  { dataDir, organizationId, demo }: { dataDir: string; organizationId: number; demo: string },
) {
  const written = CAPTIONS[demo] ?? {};
  const videos = db.select().from(lessons).where(eq(lessons.kind, "video")).all();
  for (const lesson of videos) {
    const captions = written[lesson.title];
    if (!captions) throw new Error(`demo video without captions: ${lesson.title}`);
    // Danish first for Nordlys (its language), so the tracks are listed in the organization's order.
    const languages = captions.da ? (["da", "en"] as const) : (["en"] as const);
    for (const language of languages) {
      const lines = captions[language]!;
      const { cues } = readCaptionFile(Buffer.from(vtt(lines)), `${language}.vtt`);
      const label = language === "da" ? "Dansk" : "English";
      const saved = saveTrack(db, { dataDir, organizationId }, { lesson, input: { language, label }, cues, uploadedBy: null });
      if (!saved.ok) throw new Error(`demo captions refused: ${lesson.title} (${saved.message})`);
    }
  }
}
