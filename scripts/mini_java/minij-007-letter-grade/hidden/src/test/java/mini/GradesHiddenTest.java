package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;

public class GradesHiddenTest {
    @Test
    public void everyBoundary() {
        assertEquals('B', Grades.letter(80));
        assertEquals('C', Grades.letter(70));
        assertEquals('D', Grades.letter(60));
    }

    @Test
    public void justBelowEachBoundary() {
        assertEquals('B', Grades.letter(89));
        assertEquals('C', Grades.letter(79));
        assertEquals('D', Grades.letter(69));
        assertEquals('F', Grades.letter(59));
    }

    @Test
    public void extremes() {
        assertEquals('A', Grades.letter(100));
        assertEquals('F', Grades.letter(0));
    }

    @Test
    public void distribution() {
        Map<Character, Integer> expected = new TreeMap<>();
        expected.put('A', 1);
        expected.put('B', 2);
        expected.put('D', 1);
        assertEquals(expected, Grades.distribution(new int[] {90, 80, 85, 60}));
    }

    @Test
    public void outOfRange() {
        assertThrows(IllegalArgumentException.class, () -> Grades.letter(101));
        assertThrows(IllegalArgumentException.class, () -> Grades.letter(-1));
    }
}
