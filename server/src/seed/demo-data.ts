/** The demo world created on the first start of an empty embedded database (or with SEED_DEMO=1). */

export const DEMO_PASSWORD = 'demo-password';

export const DEMO_HOSPITALS: { name: string; roster: { first: string; last: string; dob: string }[] }[] = [
  {
    name: 'City General Medical Center',
    roster: [
      { first: 'Olivia', last: 'Bennett', dob: '1978-04-12' },
      { first: 'Marcus', last: 'Hale', dob: '1982-09-30' },
      { first: 'Priya', last: 'Raman', dob: '1975-01-22' },
    ],
  },
  {
    name: 'Green Valley Health Center',
    roster: [
      { first: 'Ethan', last: 'Cole', dob: '1980-06-05' },
      { first: 'Sofia', last: 'Martinez', dob: '1986-11-17' },
      { first: 'Daniel', last: 'Okafor', dob: '1972-03-09' },
    ],
  },
  {
    name: 'Maplewood Community Hospital',
    roster: [
      { first: 'Hannah', last: 'Lee', dob: '1984-08-28' },
      { first: 'Victor', last: 'Novak', dob: '1969-12-02' },
      { first: 'Grace', last: 'Turner', dob: '1990-02-14' },
    ],
  },
  {
    name: "St. John's Hospital",
    roster: [
      { first: 'Samuel', last: 'Reed', dob: '1977-07-19' },
      { first: 'Amelia', last: 'Brooks', dob: '1983-10-03' },
      { first: 'Noah', last: 'Fischer', dob: '1988-05-25' },
    ],
  },
  {
    name: 'Sunset Memorial Hospital',
    roster: [
      { first: 'Isabel', last: 'Cruz', dob: '1981-01-31' },
      { first: 'Henry', last: 'Walsh', dob: '1974-04-16' },
      { first: 'Leah', last: 'Kim', dob: '1987-09-08' },
    ],
  },
];

export interface DemoRadiologist {
  email: string;
  first: string;
  last: string;
  expertise: string;
  bio: string;
  years: number;
  fee: number;
  dob: string;
}

export const DEMO_RADIOLOGISTS: DemoRadiologist[] = [
  {
    email: 'emily.johnson@radiology-archive.example',
    first: 'Emily',
    last: 'Johnson',
    expertise: 'Diagnostic',
    bio: 'Board-certified diagnostic radiologist who reads everything from chest X-rays to whole-body CT, with a focus on clear, jargon-free reports.',
    years: 14,
    fee: 150,
    dob: '1979-03-21',
  },
  {
    email: 'david.smith@radiology-archive.example',
    first: 'David',
    last: 'Smith',
    expertise: 'Neuroradiology',
    bio: 'Neuroradiologist specialising in brain and spine MRI, stroke imaging and headache work-ups.',
    years: 19,
    fee: 200,
    dob: '1972-08-02',
  },
  {
    email: 'robert.rivera@radiology-archive.example',
    first: 'Robert',
    last: 'Rivera',
    expertise: 'Abdominal',
    bio: 'Abdominal imaging specialist: liver, pancreas and kidney CT and MRI, and ultrasound of the abdomen.',
    years: 11,
    fee: 175,
    dob: '1983-12-11',
  },
  {
    email: 'radiologist@example.com',
    first: 'John',
    last: 'Radiologist',
    expertise: 'Neuroradiology',
    bio: 'Demo radiologist account. Reads head and neck imaging and answers second-opinion requests within two working days.',
    years: 8,
    fee: 150,
    dob: '1985-06-15',
  },
  {
    email: 'laura.davis@radiology-archive.example',
    first: 'Laura',
    last: 'Davis',
    expertise: 'Musculoskeletal',
    bio: 'Musculoskeletal radiologist for sports injuries, joints and bone tumours; former team radiologist for a university athletics programme.',
    years: 16,
    fee: 180,
    dob: '1976-02-27',
  },
  {
    email: 'monica.kirk@radiology-archive.example',
    first: 'Monica',
    last: 'Kirk',
    expertise: 'Pediatric',
    bio: 'Paediatric radiologist who keeps imaging gentle and doses low for children from newborns to teenagers.',
    years: 12,
    fee: 160,
    dob: '1980-10-09',
  },
];

export const DEMO_PHYSICIAN = {
  email: 'physician@example.com',
  first: 'Jane',
  last: 'Physician',
  dob: '1980-05-20',
  hospital: "St. John's Hospital",
};

export const DEMO_PATIENT = {
  email: 'patient@example.com',
  title: 'Mr.',
  first: 'Alex',
  last: 'Patient',
  dob: '1990-07-04',
};

/** Only the demo radiologist account has the demo password; the others can set one through a reset. */
export const DEMO_ACCOUNTS_WITH_PASSWORD = [
  'patient@example.com',
  'physician@example.com',
  'radiologist@example.com',
];
