"""Marketing website of the Nereo client portal and CRM for wealth managers."""
