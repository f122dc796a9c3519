import Container from 'react-bootstrap/Container';

const SUB_SPECIALTIES = [
  'Neuroradiology',
  'Musculoskeletal radiology',
  'Pediatric radiology',
  'Breast imaging',
  'Cardiothoracic imaging',
  'Interventional radiology',
];

export function WorkPage() {
  return (
    <Container className="py-5">
      <h1 className="mb-4">Work with Us</h1>
      <p className="lead">
        We are building a calmer way for people to see their own medical images and to get an expert second
        opinion.
      </p>
      <h2 className="h4 mt-4">Radiologists</h2>
      <p>
        Board-certified radiologists can join our panel and answer second-opinion requests remotely, on their
        own schedule. We are looking for readers in these sub-specialties:
      </p>
      <ul>
        {SUB_SPECIALTIES.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
      <h2 className="h4 mt-4">Engineering and operations</h2>
      <p>
        We also hire engineers, designers and patient-support staff who care about privacy and about software
        that people can trust with their health records.
      </p>
      <p>
        Write to <a href="mailto:careers@radiology-archive.example">careers@radiology-archive.example</a> with
        a few lines about yourself.
      </p>
    </Container>
  );
}
