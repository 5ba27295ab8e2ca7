import {
  Hash,
  HeartHandshake,
  LayoutGrid,
  Library,
  type LucideIcon,
  MapPin,
  MessageSquare,
  Orbit,
  Sparkles,
  WandSparkles,
} from 'lucide-react';

export interface Offering {
  icon: LucideIcon;
  title: string;
  text: string;
}

export const OFFERINGS: Offering[] = [
  {
    icon: Orbit,
    title: 'Natal Birth Chart',
    text: 'A map of the sky at the moment you were born: your sun, moon and rising sign, the planets in their houses, and what they say about you.',
  },
  {
    icon: Sparkles,
    title: 'Tarot Traditional',
    text: 'Three cards for your past, present and future, drawn for the question on your mind and read in plain language.',
  },
  {
    icon: LayoutGrid,
    title: 'Tarot Celtic Cross',
    text: 'The classic ten-card spread for big questions: what lies beneath the surface, what is coming, and where it may lead.',
  },
  {
    icon: HeartHandshake,
    title: 'Compatibility Reading',
    text: 'Two birth charts side by side: where you naturally flow together, and where you will grow.',
  },
  {
    icon: Hash,
    title: 'Life Path Number',
    text: 'Numerology from your name and birth date: your life path, destiny and soul urge numbers, explained.',
  },
];

export const VOICE_TOPICS = [
  'My strengths and weaknesses',
  'The role of my rising sign',
  'Unconscious patterns I keep repeating',
];

export interface Step {
  icon: LucideIcon;
  title: string;
  text: string;
}

export const STEPS: Step[] = [
  {
    icon: WandSparkles,
    title: 'Select a reading',
    text: 'Choose a birth chart, a tarot spread, a compatibility reading or your life path number.',
  },
  {
    icon: MapPin,
    title: 'Share your birth details',
    text: 'Your birth date, time and place let us read the sky exactly as it was when you arrived.',
  },
  {
    icon: MessageSquare,
    title: 'Receive your report',
    text: 'A written reading, then a voice guide to talk it through and answer your questions.',
  },
  {
    icon: Library,
    title: 'Keep it in your library',
    text: 'Every reading is saved, so you can come back to it whenever you like.',
  },
];

export interface Testimonial {
  quote: string;
  name: string;
  rating: 4 | 5;
  reading: string;
}

export const TESTIMONIALS: Testimonial[] = [
  {
    quote:
      "My natal chart put into words things about me I had never managed to explain. I've reread it three times.",
    name: 'Maya R.',
    rating: 5,
    reading: 'Natal Birth Chart',
  },
  {
    quote:
      'I asked about a job change and the three cards were uncannily on point. Talking it through with the voice guide helped me decide.',
    name: 'Daniel K.',
    rating: 5,
    reading: 'Tarot Traditional',
  },
  {
    quote:
      'A warm, thoughtful look at my partner and me. We laughed at how well it described the way we argue.',
    name: 'Priya S.',
    rating: 4,
    reading: 'Compatibility Reading',
  },
];

export interface Faq {
  question: string;
  answer: string;
}

export const FAQS: Faq[] = [
  {
    question: 'Can I try more than one type of reading?',
    answer:
      'Yes. Astra offers five kinds of reading: your natal chart, two tarot spreads, compatibility and your life path number. Your credits work for all of them, so you can mix and match.',
  },
  {
    question: 'Do I need to know anything about astrology?',
    answer:
      'Not at all. Every reading is written in plain language and explains the terms it uses, and the voice guide is happy to answer follow-up questions.',
  },
  {
    question: 'Is my data secure?',
    answer:
      'Your birth details are used only to create your readings. You sign in through a trusted provider, so we never see a password, and you can delete your account at any time from your profile.',
  },
];
