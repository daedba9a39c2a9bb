package mini;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class VersionsTest {
    @Test
    public void numericNotAlphabetical() {
        assertTrue(Versions.compare("1.10", "1.9") > 0);
    }
}
