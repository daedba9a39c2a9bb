package mini;

/** A node of a binary tree; a missing child is null. */
public final class TreeNode {
    final int value;
    final TreeNode left;
    final TreeNode right;

    public TreeNode(int value, TreeNode left, TreeNode right) {
        this.value = value;
        this.left = left;
        this.right = right;
    }

    public static TreeNode leaf(int value) {
        return new TreeNode(value, null, null);
    }
}
