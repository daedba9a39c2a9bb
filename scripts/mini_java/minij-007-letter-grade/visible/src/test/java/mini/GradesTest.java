package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class GradesTest {
    @Test
    public void topGrades() {
        assertEquals('A', Grades.letter(95));
        assertEquals('A', Grades.letter(90));
    }

    @Test
    public void failing() {
        assertEquals('F', Grades.letter(42));
    }
}
