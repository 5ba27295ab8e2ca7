/** A valid body of each reading (Ada Lovelace's, and Charles Babbage for compatibility). */
export const forms = {
  'natal-chart': {
    firstName: 'Ada',
    lastName: 'Lovelace',
    birthDate: '1990-12-10',
    birthTime: '13:00',
    city: 'London',
    country: 'United Kingdom',
  },
  'tarot-traditional': {
    firstName: 'Ada',
    question: 'Should I start the engine project this year?',
  },
  'tarot-celtic-cross': { firstName: 'Ada', question: 'What do I need to know about my work?' },
  compatibility: {
    person1: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      birthDate: '1990-12-10',
      birthTime: '13:00',
      city: 'London',
      country: 'GB',
    },
    person2: {
      firstName: 'Charles',
      lastName: 'Babbage',
      birthDate: '1991-12-26',
      birthTime: '09:15',
      city: 'Paris',
      country: 'France',
    },
  },
  'life-path': { firstName: 'Ada', lastName: 'Lovelace', birthDate: '1990-12-10' },
} as const;
