"""For learners and teachers: step tables (explain) and worksheets."""
