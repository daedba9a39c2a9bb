package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import org.junit.Test;

public class VersionsHiddenTest {
    @Test
    public void olderIsNegative() {
        assertTrue(Versions.compare("1.9", "1.10") < 0);
        assertTrue(Versions.compare("1.2", "1.10") < 0);
        assertTrue(Versions.compare("0.9.9", "1.0") < 0);
    }

    @Test
    public void missingPartsAreZero() {
        assertEquals(0, Versions.compare("1.2", "1.2.0"));
        assertTrue(Versions.compare("1.2.1", "1.2") > 0);
    }

    @Test
    public void surroundingSpaces() {
        assertEquals(0, Versions.compare(" 3.4 ", "3.4"));
    }

    @Test
    public void newest() {
        assertEquals("2.10.0", Versions.newest(Arrays.asList("2.9.3", "2.10.0", "2.2", "1.99")));
        assertEquals("4.0", Versions.newest(Arrays.asList("4.0", "4.0.0")));
    }
}
